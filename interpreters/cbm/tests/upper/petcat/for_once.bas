10 rem a for loop runs at least once
20 for i=5 to 1
30 print "inside";i
40 next
50 print "after";i
