10 a$="ab":b$=a$+"cd"+a$:print b$;len(b$)
20 for i=1 to 10:c$=c$+"x":next:print c$
30 print "a"+"b"+"c"+"d"
