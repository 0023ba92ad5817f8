10 rem running total until a negative
20 t=0
30 read x:if x<0 then 60
40 t=t+x:print "add";x;"total";t
50 goto 30
60 print "final";t
70 data 5,10,15,20,-1
