10 for i=1 to 100:print i;:next
