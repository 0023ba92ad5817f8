10 gosub 50:print "back":end
20 
30 
40 
50 print "sub":return
