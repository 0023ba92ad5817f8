10 rem collatz sequence
20 n=27:s=0
30 if n=1 then 70
40 if n/2=int(n/2) then n=n/2:goto 60
50 n=3*n+1
60 s=s+1:goto 30
70 print "steps:";s
