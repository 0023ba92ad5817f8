10 x=1e38:print x*10
