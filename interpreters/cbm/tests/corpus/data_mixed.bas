10 read a,b$,c
20 print a;b$;c
30 data 10,"s",20
