10 rem next with two variables
20 for i=1 to 2:for j=1 to 3
30 print i;j;
40 next j,i
