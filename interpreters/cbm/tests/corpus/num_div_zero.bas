10 print 5/0
