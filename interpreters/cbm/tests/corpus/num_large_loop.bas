10 s=0:for i=1 to 1000:s=s+1/i:next:print s
20 p=1:for i=1 to 30:p=p*i:print p:next
