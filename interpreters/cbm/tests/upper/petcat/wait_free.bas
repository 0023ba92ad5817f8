10 rem memory pointers
20 print peek(43)+256*peek(44)
30 a=1:b=2
40 print peek(45)+256*peek(46)-peek(43)-256*peek(44)
