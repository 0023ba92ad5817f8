10 dim a(30):x=rnd(-3):for i=0 to 30:a(i)=int(rnd(1)*1000):next
20 for i=0 to 29:for j=i+1 to 30:if a(j)<a(i) then t=a(i):a(i)=a(j):a(j)=t
30 next j,i
40 for i=0 to 30:print a(i);:next
