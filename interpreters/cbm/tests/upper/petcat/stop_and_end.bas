10 rem the program stops
20 print "before"
30 stop
40 print "after"
