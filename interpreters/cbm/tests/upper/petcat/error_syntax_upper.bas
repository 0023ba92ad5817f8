10 rem a syntax error later
20 print "fine"
30 print "oops" "
40 let = 5
