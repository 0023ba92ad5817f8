10 for i=1 to 3:for j=1 to 3:print i*j;:next j,i
20 print i;j
