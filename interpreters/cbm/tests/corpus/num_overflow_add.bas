10 x=1.7e38:print x+x
