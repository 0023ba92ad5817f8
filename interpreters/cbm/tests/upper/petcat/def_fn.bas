10 rem user functions
20 def fnsq(x)=x*x
30 def fncu(x)=x*fnsq(x)
40 for i=1 to 6:print i;fnsq(i);fncu(i):next
