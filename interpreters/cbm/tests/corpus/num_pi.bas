10 p=3.14159265:print p;p*2;p/2;sin(p);cos(p);int(p*1e8)
