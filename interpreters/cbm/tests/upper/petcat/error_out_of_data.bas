10 rem out of data
20 read a,b,c
30 print a+b+c
40 data 1,2
