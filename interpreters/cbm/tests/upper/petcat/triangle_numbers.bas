10 rem triangle and square numbers
20 for i=1 to 10
30 print i;i*(i+1)/2;i*i
40 next
