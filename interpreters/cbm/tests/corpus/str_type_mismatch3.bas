10 print "a"*2
