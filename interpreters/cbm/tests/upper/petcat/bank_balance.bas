10 rem bank account
20 b=100
30 read t$,a
40 if t$="x" then 90
50 if t$="d" then b=b+a:print "deposit";a
60 if t$="w" then b=b-a:print "withdraw";a
70 if b<0 then print "overdrawn!"
80 goto 30
90 print "balance";b
100 data d,50,w,30,w,200,d,100,x,0
