10 for i=1 to 10:i=i+2:print i;:next
