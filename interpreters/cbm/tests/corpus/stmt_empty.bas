10 print "x":
20 :print "y"
30 a=1: :b=2:print a;b
40 for i=1 to 2:next:
50 if 1 then :print "z"
60 ::::
70 if a=1 then print "then";:
80 for i=1 to 3:print i;::next i:
90 gosub 200:
100 on 1 gosub 200::print "on"
110 print "end";:
120 :
130 end:
200 print "sub":return:
