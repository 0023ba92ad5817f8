10 rem abs sgn int
20 for k=1 to 6:read x
30 print x;abs(x);sgn(x);int(x)
40 next
50 data -2.5,2.5,0,-0.1,7,-7
