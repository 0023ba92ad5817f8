10 read a,b,c:print a;b;c
20 data ,,5
