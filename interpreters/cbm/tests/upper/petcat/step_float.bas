10 rem fractional steps
20 for x=0 to 1 step .1
30 print x;
40 next
50 print:print "end";x
