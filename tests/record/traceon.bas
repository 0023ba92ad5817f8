10 print "start"
20 for i=1 to 2
30 gosub 200
40 next
50 n=0
60 n=n+1:if n<100000 then 60
70 print "end"
80 end
200 print i*i
210 return
