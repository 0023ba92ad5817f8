10 rem square roots
20 for i=1 to 10
30 print i;sqr(i)
40 next
