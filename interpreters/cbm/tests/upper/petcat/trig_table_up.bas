10 rem trig table
20 pi2=3.14159265/180
30 for d=0 to 90 step 15
40 print d;sin(d*pi2);cos(d*pi2)
50 next
