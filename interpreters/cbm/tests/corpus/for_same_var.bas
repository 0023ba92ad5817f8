10 for i=1 to 3:for i=1 to 2:print i;:next:next
