10 print "a"+("b"+("c"+("d"+"e")))
