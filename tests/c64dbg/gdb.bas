10 v=0
20 gosub 100
30 a=1
40 b=2
50 print v
60 end
100 c=3
110 return
