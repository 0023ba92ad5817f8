10 k=0
20 k=k+1
30 a=k^2:b=log(k):c=sin(k)
40 if k<50 then 20
50 print a;b;c
