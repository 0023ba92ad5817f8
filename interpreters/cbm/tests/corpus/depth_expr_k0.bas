1 rem the rom's stack: 0 for loops open, then expr recursion
20 n=0:gosub 100
100 x=1+(2*(3+(4))):print "*";:gosub 100
