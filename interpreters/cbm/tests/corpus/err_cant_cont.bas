10 print 1:cont
