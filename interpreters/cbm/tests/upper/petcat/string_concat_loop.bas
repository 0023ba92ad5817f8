10 rem build a long string
20 a$=""
30 for i=1 to 26:a$=a$+chr$(64+i):next
40 print a$;len(a$)
