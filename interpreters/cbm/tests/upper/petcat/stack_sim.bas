10 rem a stack in an array
20 dim s(10):p=0
30 for i=1 to 5:s(p)=i*3:p=p+1:next
40 if p=0 then 60
50 p=p-1:print s(p);:goto 40
60 print
