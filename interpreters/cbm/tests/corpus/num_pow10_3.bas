10 for i=21 to 38:print i;10^i;1/10^i*10^i:next
