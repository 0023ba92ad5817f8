10 rem lunar lander, fixed burns
20 h=100:v=0:f=50
30 read b:if b<0 then 90
40 if b>f then b=f
50 f=f-b:v=v+1.6-b/5:h=h-v
60 print "height";int(h);"speed";int(v*10)/10;"fuel";f
70 if h<=0 then 90
80 goto 30
90 if v<5 then print "safe landing":end
100 print "crash!"
110 data 0,0,0,5,10,10,10,5,5,5,0,-1
