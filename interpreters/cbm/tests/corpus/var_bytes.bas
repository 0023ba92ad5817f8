10 a=1.5:v=peek(45)+256*peek(46):for i=0 to 6:print peek(v+i);:next
20 print
30 b%=-2:for i=7 to 13:print peek(v+i);:next
