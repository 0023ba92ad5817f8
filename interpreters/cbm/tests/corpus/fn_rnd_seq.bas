10 x=rnd(-1):for i=1 to 30:print rnd(1);:next
