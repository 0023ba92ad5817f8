10 rem fibonacci numbers
20 a=0:b=1
30 for i=1 to 20
40 print a;
50 c=a+b:a=b:b=c
60 next:print
