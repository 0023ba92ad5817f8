10 for i=1 to 30:print 1/i;i/7;-i/3:next
