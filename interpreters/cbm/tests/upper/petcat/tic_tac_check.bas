10 rem noughts and crosses: who won
20 dim b(9)
30 for i=1 to 9:read b(i):next
40 for l=1 to 8:read a,b,c
50 if b(a)<>0 and b(a)=b(b) and b(b)=b(c) then print "player";b(a);"wins"
60 next
70 data 1,2,0,1,2,0,1,0,2
80 data 1,2,3,4,5,6,7,8,9,1,4,7,2,5,8,3,6,9,1,5,9,3,5,7
