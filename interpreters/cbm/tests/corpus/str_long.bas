10 a$="0123456789":for i=1 to 4:a$=a$+a$:next:print len(a$)
20 b$=left$(a$,255):print len(b$)
30 b$=b$+"x"
