10 read a$,b$:print a$;"/";b$
20 data x:y
30 data z
