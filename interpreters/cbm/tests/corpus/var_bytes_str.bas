10 a$="hello":v=peek(45)+256*peek(46):for i=0 to 4:print peek(v+i);:next
20 print
30 p=peek(v+3)+256*peek(v+4):for i=0 to 4:print chr$(peek(p+i));:next
