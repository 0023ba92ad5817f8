10 rem high score table
20 dim n$(5),s(5)
30 for i=1 to 5:read n$(i),s(i):next
40 for i=1 to 4:for j=i+1 to 5
50 if s(j)>s(i) then t=s(i):s(i)=s(j):s(j)=t:t$=n$(i):n$(i)=n$(j):n$(j)=t$
60 next j,i
70 for i=1 to 5:print i;n$(i);s(i):next
80 data jeff,1200,anna,4500,bob,300,zak,9900,liz,2750
