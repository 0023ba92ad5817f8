10 rem big and small numbers
20 x=1
30 for i=1 to 12:x=x*10:print x:next
40 print 1.7e38;2e-38
