10 rem negative step
20 for i=10 to 1 step -3
30 print i;
40 next
50 print i
