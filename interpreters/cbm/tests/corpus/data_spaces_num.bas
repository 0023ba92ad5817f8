10 read a,b:print a;b
20 data  1 2 ,3 4
