10 dim a(5):for i=0 to 5:a(i)=i*i:next:for i=0 to 5:print a(i);:next
