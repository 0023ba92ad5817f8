10 rem greatest common divisor
20 for k=1 to 5:read a,b
30 x=a:y=b
40 if y=0 then 70
50 r=x-int(x/y)*y:x=y:y=r
60 goto 40
70 print "gcd(";a;",";b;") =";x
80 next
90 data 48,18,100,75,17,5,1071,462,81,27
