10 dim c(2,2,2):for i=0 to 2:for j=0 to 2:for k=0 to 2
20 c(i,j,k)=i*9+j*3+k:next:next:next
30 for i=0 to 2:print c(i,1,2);c(2,i,0);c(1,1,i):next
