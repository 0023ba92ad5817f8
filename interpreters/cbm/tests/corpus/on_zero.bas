10 on 0 goto 100:print "fell"
