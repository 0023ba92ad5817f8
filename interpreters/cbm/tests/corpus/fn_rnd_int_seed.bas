10 x=rnd(-3.7):print rnd(1):x=rnd(-123456):print rnd(1);rnd(5);rnd(1e9)
