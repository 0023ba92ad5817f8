10 read a,b,c
20 data 1,2
