10 if x=1 then print "second":end
20 x=1:run 10
