10 def fna(x)=x*x+1:print fna(3);fna(-2)
20 def fnb(y)=fna(y)*2:print fnb(2)
30 x=5:print fna(1);x
