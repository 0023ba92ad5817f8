10 l=3:for i=1 to l:l=10:print i;:next
