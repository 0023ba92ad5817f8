10 rem least common multiple of 1..12
20 l=1
30 for n=2 to 12
40 a=l:b=n
50 if b then t=a-int(a/b)*b:a=b:b=t:goto 50
60 l=l*n/a
70 next
80 print l
