10 for s=1 to 10:x=rnd(-s):print x;rnd(1);rnd(1):next
