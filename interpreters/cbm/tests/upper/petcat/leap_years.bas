10 rem leap years
20 for y=1980 to 2000 step 4
30 l=(y/4=int(y/4)) and ((y/100<>int(y/100)) or (y/400=int(y/400)))
40 print y;:if l then print "leap":goto 60
50 print "not leap"
60 next
