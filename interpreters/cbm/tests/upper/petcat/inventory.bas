10 rem shop inventory
20 t=0
30 read n$,q,p:if n$="end" then 60
40 print n$;q;"at";p;"=";q*p:t=t+q*p
50 goto 30
60 print "stock value";t
70 data joystick,4,19.95,datasette,2,44.5,disk,50,1.99,end,0,0
