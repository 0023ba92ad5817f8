10 dim a%(20):for i=0 to 20:a%(i)=i*i-100:next:for i=0 to 20:print a%(i);:next
20 print fre(0)
