10 for i=1 to 25:x=1.1^i:print x;x*x:next
