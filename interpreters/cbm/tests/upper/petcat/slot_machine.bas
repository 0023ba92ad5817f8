10 rem slot machine with a seed
20 x=rnd(-7):dim s$(3)
30 for i=1 to 3:read s$(i):next
40 for p=1 to 5
50 a=int(rnd(1)*3)+1:b=int(rnd(1)*3)+1:c=int(rnd(1)*3)+1
60 print s$(a);" ";s$(b);" ";s$(c);
70 if a=b and b=c then print " jackpot":goto 90
80 print
90 next
100 data bell,cherry,bar
