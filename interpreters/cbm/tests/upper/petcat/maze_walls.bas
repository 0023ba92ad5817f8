10 rem a small maze from data
20 for r=1 to 5:read a$
30 for c=1 to len(a$)
40 if mid$(a$,c,1)="1" then print "#";:goto 60
50 print " ";
60 next:print
70 next
80 data 11111,10001,10101,10001,11111
