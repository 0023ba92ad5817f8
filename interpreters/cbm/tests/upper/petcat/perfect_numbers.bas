10 rem perfect numbers
20 for n=2 to 500
30 s=1
40 for d=2 to sqr(n)
50 if n/d=int(n/d) then s=s+d:if d<>n/d then s=s+n/d
60 next
70 if s=n then print n;"is perfect"
80 next
