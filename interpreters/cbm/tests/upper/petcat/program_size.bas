10 rem how long is this program
20 s=peek(43)+256*peek(44):e=peek(45)+256*peek(46)
30 print "program bytes";e-s
