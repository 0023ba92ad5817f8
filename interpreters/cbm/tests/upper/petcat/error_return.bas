10 rem return without gosub
20 print "start"
30 return
