10 rem semicolons and numbers
20 print 1;2;3
30 print "a";"b";"c"
40 print -1;-2;-3
50 print 1"x"2
