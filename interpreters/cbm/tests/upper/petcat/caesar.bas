10 rem caesar cipher
20 a$="attack at dawn":k=3:b$=""
30 for i=1 to len(a$)
40 c=asc(mid$(a$,i,1))
50 if c>=65 and c<=90 then c=c+k:if c>90 then c=c-26
60 b$=b$+chr$(c)
70 next
80 print b$
