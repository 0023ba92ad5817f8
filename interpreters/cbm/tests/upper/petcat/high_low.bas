10 rem higher or lower with cards from data
20 read a
30 read b:if b=0 then print "game over":end
40 if b>a then print a;"then";b;"higher"
50 if b<a then print a;"then";b;"lower"
60 if b=a then print a;"then";b;"same"
70 a=b:goto 30
80 data 7,3,11,11,2,13,0
