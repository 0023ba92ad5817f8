10 a=.1:b=.2:print a+b;a+b-.3;(a+b)=.3
20 for i=1 to 20:s=s+.1:print s;:next
