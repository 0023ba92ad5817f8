10 def fna(x)=x:print fna("s")
