10 get k$:if k$="" then 10
20 print "got ";k$
30 n=n+1:if n<3 then 10
