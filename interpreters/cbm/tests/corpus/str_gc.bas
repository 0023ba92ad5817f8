10 for i=1 to 2000:a$=str$(i):b$=a$+a$:next:print a$;b$;fre(0)
20 dim z$(100):for i=0 to 100:z$(i)=str$(i*i):next:print fre(0);z$(100)
