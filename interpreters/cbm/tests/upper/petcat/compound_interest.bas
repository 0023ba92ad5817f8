10 rem compound interest
20 p=1000:r=.05
30 for y=1 to 10
40 p=p*(1+r)
50 print "year";y;int(p*100+.5)/100
60 next
