10 read a,b:restore:read c:print a;b;c
20 data 7,8
