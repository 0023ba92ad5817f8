10 print 0^-1
