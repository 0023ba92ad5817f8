10 rem if then line number
20 x=5
30 if x>3 then 60
40 print "small"
50 end
60 print "big"
