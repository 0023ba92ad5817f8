10 x=rnd(-7):for i=1 to 60:print int(rnd(1)*6)+1;:next
