10 rem rounding with def fn
20 def fnr(x)=int(x*100+.5)/100
30 for i=1 to 5:read v:print v;fnr(v):next
40 data 3.14159,2.71828,1.41421,0.005,99.999
