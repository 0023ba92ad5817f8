10 x=1:for i=1 to 140:x=x/2:next:print x
20 for i=1 to 10:x=x/2:print x:next
