10 for n=2 to 200:for d=2 to sqr(n):if n/d=int(n/d) then 40
20 next:print n;
30 goto 50
40 next d
50 next n
