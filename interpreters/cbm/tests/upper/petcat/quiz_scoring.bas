10 rem quiz with answers in data
20 s=0
30 for q=1 to 4:read q$,a$,g$
40 print q$;" ";g$;
50 if g$=a$ then s=s+1:print " right":goto 70
60 print " wrong, ";a$
70 next
80 print "score";s;"of 4"
90 data 2+2,4,4,capital of france,paris,lyon,6*7,42,42,sid chip,6581,6581
