10 for i=1 to 3:gosub 40:next:end
20 
30 
40 for j=1 to 2:print i;j;:next:return
