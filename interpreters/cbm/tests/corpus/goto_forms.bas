10 goto 40
20 print "no"
30 
40 go to 60
50 
60 print "yes"
