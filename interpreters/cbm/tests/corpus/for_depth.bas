10 gosub 100:print "ok"
20 end
30 
40 
50 
60 
70 
80 
90 
100 for a=1 to 1:for b=1 to 1:for c=1 to 1:for d=1 to 1:for e=1 to 1
110 for f=1 to 1:for g=1 to 1:for h=1 to 1:for i=1 to 1:for j=1 to 1
