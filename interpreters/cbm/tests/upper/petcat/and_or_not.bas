10 rem logic
20 for a=0 to 1:for b=0 to 1
30 print a;b;a and b;a or b;not a
40 next b,a
50 print 12 and 10;12 or 10
