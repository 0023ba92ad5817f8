10 rem replace a character
20 a$="hello world"
30 p=7
40 a$=left$(a$,p-1)+"*"+mid$(a$,p+1)
50 print a$
