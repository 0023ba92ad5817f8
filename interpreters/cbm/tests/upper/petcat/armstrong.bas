10 rem armstrong numbers
20 for n=100 to 999
30 a=int(n/100):b=int(n/10)-a*10:c=n-int(n/10)*10
40 if a*a*a+b*b*b+c*c*c=n then print n;
50 next:print
