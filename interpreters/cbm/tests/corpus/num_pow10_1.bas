10 for i=-19 to 0:print i;10^i;1/10^i*10^i:next
