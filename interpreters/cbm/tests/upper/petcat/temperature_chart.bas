10 rem temperature chart
20 for m=1 to 6:read m$,t
30 print m$;" ";
40 for i=1 to t/2:print "=";:next
50 print t
60 next
70 data jan,4,feb,6,mar,10,apr,14,may,18,jun,22
