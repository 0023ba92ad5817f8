10 for i=1 to 12:a$=a$+str$(i):next:print a$;len(a$)
