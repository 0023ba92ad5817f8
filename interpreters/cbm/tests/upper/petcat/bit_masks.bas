10 rem bit masks
20 v=0
30 for b=0 to 7 step 2:v=v or 2^b:next
40 print "value";v
50 for b=7 to 0 step -1:print sgn(v and 2^b);:next:print
