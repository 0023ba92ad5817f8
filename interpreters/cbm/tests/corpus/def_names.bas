10 def fnab(q)=q+1:print fnabc(1);fnab(2)
20 q=9:print q
