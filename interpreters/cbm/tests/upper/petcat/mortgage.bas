10 rem monthly payment
20 p=50000:r=.08/12:n=240
30 m=p*r/(1-(1+r)^-n)
40 print "payment";int(m*100+.5)/100
