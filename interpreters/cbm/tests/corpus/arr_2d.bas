10 dim m(3,4):for i=0 to 3:for j=0 to 4:m(i,j)=i*10+j:next:next
20 for i=0 to 3:for j=0 to 4:print m(i,j);:next:print:next
