10 x=1:for i=1 to 12:x=x*10+i:print x;x/7:next
