10 for i=0 to 32:print 2^i-1;:next
