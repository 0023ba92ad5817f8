10 for i=-39 to -20:print i;10^i;1/10^i*10^i:next
