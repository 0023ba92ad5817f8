10 def fn(x)=1
