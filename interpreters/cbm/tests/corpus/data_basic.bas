10 for i=1 to 5:read a:print a;:next
20 data 1,2.5,-3,1e3,.5
