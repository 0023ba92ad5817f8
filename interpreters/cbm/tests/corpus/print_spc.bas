10 print "a";spc(3);"b"
20 print spc(0);"c"
