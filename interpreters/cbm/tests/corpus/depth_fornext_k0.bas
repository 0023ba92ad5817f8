1 rem the rom's stack: 0 for loops open, then fornext recursion
20 n=0:gosub 100
100 for j=1 to 2:next:print "*";:gosub 100
