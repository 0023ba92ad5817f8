10 gosub 30:print "x":end
20 
30 for i=1 to 5:return
