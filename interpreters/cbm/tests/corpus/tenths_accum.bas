10 x=0:for i=1 to 30:x=x+.1:print x;:next
