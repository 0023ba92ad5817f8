10 for i=1 to 50:print sqr(i*i)-i;:next
