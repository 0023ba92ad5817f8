10 rem random walk
20 x=rnd(-3):p=10
30 for i=1 to 15
40 p=p+sgn(rnd(1)-.5)
50 print p;
60 next:print
