10 dim w$(3):for i=0 to 3:read w$(i):next:data b,a,d,c
20 for i=0 to 2:for j=i+1to 3:if w$(j)<w$(i) then x$=w$(i):w$(i)=w$(j):w$(j)=x$
30 next j,i:for i=0 to 3:print w$(i);:next
