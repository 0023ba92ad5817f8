10 rem a queue in an array
20 dim q(10):h=0:t=0
30 for i=1 to 5:q(t)=i*i:t=t+1:next
40 if h=t then 70
50 print q(h);:h=h+1
60 goto 40
70 print:print "empty"
