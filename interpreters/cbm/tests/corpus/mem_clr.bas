10 a=5:b$="x"+"y":clr:print a;b$;fre(0)
