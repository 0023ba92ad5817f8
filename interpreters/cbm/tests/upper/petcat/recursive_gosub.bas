10 rem recursion with gosub and an array stack
20 dim s(20):n=5:p=0
30 gosub 100
40 print "result";r
50 end
100 if n<=1 then r=1:return
110 s(p)=n:p=p+1:n=n-1:gosub 100
120 p=p-1:n=s(p):r=r*n
130 return
