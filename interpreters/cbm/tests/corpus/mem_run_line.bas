10 print "start"
20 if peek(49152)=1 then print "second":end
30 poke 49152,1:run 20
