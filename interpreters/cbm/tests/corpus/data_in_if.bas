10 if 0 then data 1,2
20 read a,b:print a;b
