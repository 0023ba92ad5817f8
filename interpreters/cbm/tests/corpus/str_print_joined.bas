10 a=5:print a"x"a;"y"
20 print "a""b"
30 print 1 2
40 print "n="5*2
