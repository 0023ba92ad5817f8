10 rem trailing and empty statements
20 print "a";:
30 :print "b";
40 print "c";::print "d"
50 for i=1 to 2:next:
60 if 1 then :print "e"
