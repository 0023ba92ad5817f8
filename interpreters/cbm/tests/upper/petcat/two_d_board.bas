10 rem a chess board pattern
20 for y=1 to 8
30 for x=1 to 8
40 if (x+y)/2=int((x+y)/2) then print "#";:goto 60
50 print ".";
60 next:print
70 next
