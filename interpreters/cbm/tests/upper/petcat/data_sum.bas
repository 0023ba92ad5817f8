10 rem read data and add it up
20 t=0
30 for i=1 to 8:read a:t=t+a:next
40 print "total";t
50 data 12,7,33,-4,19,0,5,8
