10 if 1 then print "a"
20 if 0 then print "b"
30 if 1 goto 50
40 print "c"
50 if 1 then 70
60 print "d"
70 if 2>1 then if 3>2 then print "e":print "f"
80 if 0 then print "g":print "h"
90 print "i"
