10 rem day of the week (zeller)
20 for k=1 to 3:read d,m,y
30 if m<3 then m=m+12:y=y-1
40 w=d+int(13*(m+1)/5)+y+int(y/4)-int(y/100)+int(y/400)
50 w=w-int(w/7)*7
60 print w
70 next
80 data 1,1,1982,25,12,1984,4,7,1976
