10 rem towers of hanoi, 3 discs
20 dim n(20),f(20),t(20),v(20):sp=0
30 n=3:f=1:t=3:v=2:m=0
40 gosub 100:print "moves";m:end
100 if n=0 then return
110 sp=sp+1:n(sp)=n:f(sp)=f:t(sp)=t:v(sp)=v
120 n=n-1:x=t:t=v:v=x:gosub 100
130 n=n(sp):f=f(sp):t=t(sp):v=v(sp)
140 m=m+1:print "disc";n;"from";f;"to";t
150 n=n-1:x=f:f=v:v=x:gosub 100
160 sp=sp-1:return
