10 rem shuffle a deck of 10
20 x=rnd(-11):dim d(10)
30 for i=1 to 10:d(i)=i:next
40 for i=10 to 2 step -1
50 j=int(rnd(1)*i)+1:t=d(i):d(i)=d(j):d(j)=t
60 next
70 for i=1 to 10:print d(i);:next:print
