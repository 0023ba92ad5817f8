10 rem dice with a fixed seed
20 x=rnd(-42)
30 for i=1 to 12
40 print int(rnd(1)*6)+1;
50 next:print
