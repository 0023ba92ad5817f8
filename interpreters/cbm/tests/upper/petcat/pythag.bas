10 rem pythagorean triples
20 for a=1 to 20:for b=a to 20
30 c=sqr(a*a+b*b)
40 if c=int(c) then print a;b;c
50 next b,a
