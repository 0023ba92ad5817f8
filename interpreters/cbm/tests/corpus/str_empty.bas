10 a$="":print len(a$);a$="";"/";a$;"/"
20 b$=left$("abc",0)+"":print len(b$)
