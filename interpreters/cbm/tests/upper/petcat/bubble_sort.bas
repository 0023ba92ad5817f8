10 rem bubble sort
20 dim a(10)
30 for i=1 to 10:read a(i):next
40 for i=1 to 9:for j=1 to 10-i
50 if a(j)>a(j+1) then t=a(j):a(j)=a(j+1):a(j+1)=t
60 next j,i
70 for i=1 to 10:print a(i);:next:print
80 data 64,12,99,3,45,7,81,23,56,1
