10 for i=1 to 3:for j=1 to 2:print i;j;:next:next
