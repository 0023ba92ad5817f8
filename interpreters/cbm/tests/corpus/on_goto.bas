10 for k=1 to 4:on k goto 50,60,70
20 print "none";:next:end
30 
40 
50 print "a";:next
60 print "b";:next
70 print "c";:next
