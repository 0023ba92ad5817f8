10 rem *** remarks ***
20 print "a":rem a comment after a statement
30 rem print "never"
40 print "b"
