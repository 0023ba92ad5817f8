10 rem split a sentence into words
20 a$="all work and no play makes jack a dull boy"+" "
30 w$=""
40 for i=1 to len(a$):c$=mid$(a$,i,1)
50 if c$<>" " then w$=w$+c$:goto 70
60 print w$:w$=""
70 next
