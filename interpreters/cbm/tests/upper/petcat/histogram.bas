10 rem histogram
20 for i=1 to 6:read n
30 print i;
40 for j=1 to n:print "#";:next
50 print
60 next
70 data 3,7,2,9,5,1
