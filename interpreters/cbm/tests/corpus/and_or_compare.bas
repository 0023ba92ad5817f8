10 a=5:print a>1 and a<10;a<1 or a>10;(a=5)*3
