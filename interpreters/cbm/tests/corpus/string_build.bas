10 for i=1 to 26:a$=a$+chr$(64+i):next:print a$
20 for i=1 to 26:print mid$(a$,i,1);:next
30 print
40 for i=26 to 1 step -1:b$=b$+mid$(a$,i,1):next:print b$
