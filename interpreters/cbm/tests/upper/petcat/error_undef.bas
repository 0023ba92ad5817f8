10 rem an undefined statement
20 gosub 100
30 print "back"
40 goto 999
