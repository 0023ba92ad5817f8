10 rem powers of two
20 for i=0 to 24 step 4
30 print "2 to the";i;"=";2^i
40 next
