10 rem making change
20 a=387:print "change for";a
30 for i=1 to 6:read c
40 n=int(a/c):a=a-n*c
50 if n then print n;"x";c
60 next
70 data 100,50,20,10,5,1
