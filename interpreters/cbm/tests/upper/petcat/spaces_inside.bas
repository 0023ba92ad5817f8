10 rem spaces in numbers and names
20 a b = 1 2 3
30 print a b; ab
40 g o t o 60
50 print "skipped"
60 print "jumped"
