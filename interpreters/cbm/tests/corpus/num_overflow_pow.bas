10 print 10^39
