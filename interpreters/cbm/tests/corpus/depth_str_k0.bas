1 rem the rom's stack: 0 for loops open, then str recursion
20 n=0:gosub 100
100 x$=left$("ab"+mid$("cd",(1),1),1):print x$;:gosub 100
