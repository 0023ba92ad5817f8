10 print "a":stop:print "b"
