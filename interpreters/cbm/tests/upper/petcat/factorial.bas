10 rem factorials
20 f=1
30 for n=1 to 15
40 f=f*n
50 print n;"! =";f
60 next
