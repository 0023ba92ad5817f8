10 rem binary search
20 dim a(15)
30 for i=1 to 15:a(i)=i*7:next
40 for k=1 to 3:read x:l=1:h=15:f=0
50 if l>h then 90
60 m=int((l+h)/2):if a(m)=x then f=m:goto 90
70 if a(m)<x then l=m+1:goto 50
80 h=m-1:goto 50
90 print x;"found at";f
100 next
110 data 49,50,105
