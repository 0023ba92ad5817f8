1 rem the rom's stack: 2 for loops open, then fornext recursion
2 for v1=1 to 1
3 for v2=1 to 1
20 n=0:gosub 100
100 for j=1 to 2:next:print "*";:gosub 100
