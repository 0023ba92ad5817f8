10 for i=-30 to 40:print 2^i;:next
