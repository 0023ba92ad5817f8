10 for i=32 to 95:if asc(chr$(i))<>i then print "bad";i
20 next:print "ok"
