10 rem operator precedence
20 print 2+3*4;(2+3)*4;2^3^2;-2^2
30 print 10-4-3;100/10/5;not 0 and 5
40 print 1<2;2<1;"a"<"b"
