10 def fna(x)=x+1:def fnb(x)=fna(x)*fna(x):print fnb(2);fnb(fna(1))
