10 print "x";:print 1/0
