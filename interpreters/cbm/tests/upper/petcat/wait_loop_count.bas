10 rem a delay loop
20 c=0
30 for i=1 to 1000:c=c+1:next
40 print "counted";c
