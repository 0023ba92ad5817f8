10 for i=1 to 30:print i/100;:next
