10 a=0:b=1:for i=1 to 80:c=a+b:a=b:b=c:print c;:next
