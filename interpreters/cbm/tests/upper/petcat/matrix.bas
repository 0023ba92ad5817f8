10 rem matrix multiply
20 dim a(2,2),b(2,2),c(2,2)
30 for i=1 to 2:for j=1 to 2:read a(i,j):next j,i
40 for i=1 to 2:for j=1 to 2:read b(i,j):next j,i
50 for i=1 to 2:for j=1 to 2:for k=1 to 2
60 c(i,j)=c(i,j)+a(i,k)*b(k,j)
70 next k,j,i
80 for i=1 to 2:print c(i,1);c(i,2):next
90 data 1,2,3,4,5,6,7,8
