10 rem nested loops
20 for i=1 to 3
30 for j=1 to 3
40 print i*10+j;
50 next j
60 print
70 next i
