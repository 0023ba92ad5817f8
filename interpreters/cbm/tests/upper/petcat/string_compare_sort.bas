10 rem sort names
20 dim n$(6)
30 for i=1 to 6:read n$(i):next
40 for i=1 to 5:for j=i+1 to 6
50 if n$(j)<n$(i) then t$=n$(i):n$(i)=n$(j):n$(j)=t$
60 next j,i
70 for i=1 to 6:print n$(i):next
80 data vic,pet,amiga,plus4,c128,c16
