10 rem roman numerals
20 for k=1 to 5:read n:o$=""
30 restore:for s=1 to 5:read d:next
40 for i=1 to 13:read v,r$
50 if n>=v then n=n-v:o$=o$+r$:goto 50
60 next:print o$
70 restore:for s=1 to k:read d:next
80 next
90 data 1984,64,2026,49,3999
100 data 1000,m,900,cm,500,d,400,cd,100,c,90,xc,50,l
110 data 40,xl,10,x,9,ix,5,v,4,iv,1,i
