10 x=-0:print x;-x;x=0
20 y=0-0:print y
