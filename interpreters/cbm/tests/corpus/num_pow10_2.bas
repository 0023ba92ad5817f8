10 for i=1 to 20:print i;10^i;1/10^i*10^i:next
