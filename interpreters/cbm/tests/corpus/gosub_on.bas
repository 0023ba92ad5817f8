10 for k=0 to 4:on k gosub 100,110,120:print "/";:next
20 end
30 
40 
50 
60 
70 
80 
90 
100 print "a";:return
110 print "b";:return
120 print "c";:return
