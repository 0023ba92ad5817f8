10 for i=1 to 255:a$=a$+chr$(65+i-26*int(i/26)):next
20 print len(a$);right$(a$,10)
