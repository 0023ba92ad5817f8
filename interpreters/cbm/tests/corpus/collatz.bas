10 n=27:c=0
20 if n=1 then print c:end
30 c=c+1:if n/2=int(n/2) then n=n/2:goto 20
40 n=3*n+1:goto 20
