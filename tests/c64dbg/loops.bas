10 rem loops, gosub and an error
20 for i=1 to 2:for j=1 to 3
30 s=s+i*j:next j,i
40 a$="hi":dim b%(3):b%(2)=7
50 gosub 100
60 print "s=";s
70 x=1/(s-18)
80 end
100 t=t+1:print "in sub"
110 gosub 200:return
200 t=t*10:return
