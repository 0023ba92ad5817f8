10 print "abc
