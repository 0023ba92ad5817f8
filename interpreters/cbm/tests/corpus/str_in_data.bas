10 read a$,b$,c$:print a$;"/";b$;"/";c$
20 data  hello ,"with, comma",  x y  
