10 for i=-3 to 3:print sgn(i)*i;:next
