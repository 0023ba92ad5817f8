10 rem exp and log
20 for i=1 to 5
30 print i;exp(i);log(i)
40 next
