10 rem padding numbers
20 for i=1 to 5:read n
30 n$=str$(n):n$=right$(n$,len(n$)-1)
40 if len(n$)<6 then n$="0"+n$:goto 40
50 print n$
60 next
70 data 7,64,1541,38911,128
