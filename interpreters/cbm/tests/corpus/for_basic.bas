10 for i=1 to 5:print i;:next
20 for i=5 to 1 step -1:print i;:next
30 for i=1 to 2 step .5:print i;:next:print i
