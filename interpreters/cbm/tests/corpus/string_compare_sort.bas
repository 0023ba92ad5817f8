10 dim w$(5):for i=0 to 5:read w$(i):next
20 for i=0 to 4:for j=i+1 to 5:if w$(j)<w$(i) then gosub 70
30 next j,i:for i=0 to 5:print w$(i);" ";:next:end
40 data pear,apple,fig,banana,kiwi,date
70 t$=w$(i):w$(i)=w$(j):w$(j)=t$:return
