10 rem times table
20 n=7
30 for i=1 to 12
40 print n;"x";i;"=";n*i
50 next
