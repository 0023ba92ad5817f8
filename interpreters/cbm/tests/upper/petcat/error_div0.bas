10 rem a division by zero
20 for i=3 to 0 step -1
30 print 12/i
40 next
