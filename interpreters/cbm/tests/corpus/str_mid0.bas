10 print mid$("hi",0)
