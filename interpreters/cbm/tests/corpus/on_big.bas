10 on 255 goto 100:print "fell"
