10 rem nested subroutines
20 gosub 100:print "main"
30 end
100 print "sub 1":gosub 200:return
200 print "sub 2":gosub 300:return
300 print "sub 3":return
