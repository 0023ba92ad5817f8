1 rem the rom's stack: 2 for loops open, then gosub recursion
2 for v1=1 to 1
3 for v2=1 to 1
20 n=0:gosub 100
100 print "*";:gosub 100
