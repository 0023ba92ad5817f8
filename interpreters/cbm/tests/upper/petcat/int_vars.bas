10 rem integer variables
20 a%=7:b%=-3
30 print a%/2;int(a%/2);a%*b%
40 c%=3.9:d%=-3.9
50 print c%;d%
