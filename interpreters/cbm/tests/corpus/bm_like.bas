10 k=0
20 k=k+1
30 a=k/k*k+k-k
40 if k<100 then 20
50 print a;k
