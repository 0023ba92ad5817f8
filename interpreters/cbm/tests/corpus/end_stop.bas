10 print "a":end:print "b"
