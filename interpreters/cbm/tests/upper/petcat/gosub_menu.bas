10 rem menu with on gosub
20 for k=1 to 4
30 on k gosub 100,200,300,400
40 next
50 end
100 print "load game":return
200 print "save game":return
300 print "options":return
400 print "quit":return
