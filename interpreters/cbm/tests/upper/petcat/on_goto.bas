10 rem on goto dispatch
20 for i=1 to 3
30 on i goto 40,50,60
40 print "one":goto 70
50 print "two":goto 70
60 print "three"
70 next
