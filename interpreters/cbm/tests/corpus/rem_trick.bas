10 rem print "never"
20 print "after"
