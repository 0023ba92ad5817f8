10 print 1 or -32769
