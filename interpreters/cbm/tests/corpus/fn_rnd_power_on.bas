10 for i=1 to 10:print rnd(1);:next
