10 rem string functions
20 a$="commodore"
30 print left$(a$,3)
40 print right$(a$,4)
50 print mid$(a$,4,3)
60 print len(a$)
70 print str$(64);val("3.5e2")
