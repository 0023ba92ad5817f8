10 for x=.1 to 3 step .3:print exp(log(x));sqr(x)^2;atn(tan(x)):next
