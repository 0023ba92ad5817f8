10 k=10:def fnk(x)=x*k:print fnk(2):k=20:print fnk(2)
