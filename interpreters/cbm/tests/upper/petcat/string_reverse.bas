10 rem reverse a string
20 a$="commodore 64"
30 b$=""
40 for i=len(a$) to 1 step -1
50 b$=b$+mid$(a$,i,1)
60 next
70 print b$
