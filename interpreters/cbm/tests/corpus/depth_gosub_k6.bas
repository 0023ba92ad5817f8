1 rem the rom's stack: 6 for loops open, then gosub recursion
2 for v1=1 to 1
3 for v2=1 to 1
4 for v3=1 to 1
5 for v4=1 to 1
6 for v5=1 to 1
7 for v6=1 to 1
20 n=0:gosub 100
100 print "*";:gosub 100
