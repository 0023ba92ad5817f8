1 rem the rom's stack: 9 for loops open, then expr recursion
2 for v1=1 to 1
3 for v2=1 to 1
4 for v3=1 to 1
5 for v4=1 to 1
6 for v5=1 to 1
7 for v6=1 to 1
8 for v7=1 to 1
9 for v8=1 to 1
10 for v9=1 to 1
20 n=0:gosub 100
100 x=1+(2*(3+(4))):print "*";:gosub 100
