10 print 1e39
