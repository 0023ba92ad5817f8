10 print "a"
20 x=1+
