10 rem commands, list and x/s
20 print "hello"
30 for i=1 to 3
40 s=s+i
50 next i
60 print "s=";s
70 a=1
80 b=2
90 c=3
100 d=4
110 e=5
120 f=6
130 g=7
140 h=8
150 k=9
160 m=10
170 print "done"
180 end
