1 rem the rom's stack: 0 for loops open, then gosub recursion
20 n=0:gosub 100
100 print "*";:gosub 100
