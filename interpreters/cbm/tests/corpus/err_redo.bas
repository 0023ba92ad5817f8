10 a=1:print a:b=c/0
