10 if 1 print "x"
