10 print 40000 and 1
