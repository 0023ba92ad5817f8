10 print rnd(-5);rnd(-5);rnd(-.5);rnd(-1e10)
