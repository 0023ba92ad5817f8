10 a$="hello world"
20 print left$(a$,5);"/";right$(a$,5);"/";mid$(a$,7);"/";mid$(a$,3,4)
30 print left$(a$,0);"/";right$(a$,20);"/";mid$(a$,20);"/";mid$(a$,11,5)
40 print len(a$);asc(a$);asc("a");chr$(65);chr$(48)
