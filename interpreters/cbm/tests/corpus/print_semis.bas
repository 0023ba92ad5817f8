10 print "a";"b";:print "c"
20 print 1;2;3;
30 print
40 print -1;-2
