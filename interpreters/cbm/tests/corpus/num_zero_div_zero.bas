10 print 0/0
