10 for i=-3 to 3:for j=-3 to 3:print i^j;:next:next
20 print 2^.5;.5^.5;10^-1;0^0;0^2
