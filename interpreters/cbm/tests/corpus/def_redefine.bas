10 def fna(x)=x:print fna(2):def fna(x)=-x:print fna(2)
