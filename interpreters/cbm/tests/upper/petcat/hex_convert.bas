10 rem decimal to hex
20 h$="0123456789abcdef"
30 for k=1 to 6:read n
40 o$=""
50 d=n-int(n/16)*16:o$=mid$(h$,d+1,1)+o$:n=int(n/16)
60 if n>0 then 50
70 print "$";o$
80 next
90 data 53280,49152,1024,255,65535,2049
