10 rem countdown
20 for i=10 to 0 step -1
30 print i;
40 next
50 print "lift off!"
