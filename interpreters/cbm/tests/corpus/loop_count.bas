10 for i=1 to 10000:s=s+i:next:print s
20 k=0
30 k=k+1:if k<5000 then 30
40 print k
