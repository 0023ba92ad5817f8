10 rem sum of digits
20 for k=1 to 4:read n:s=0:m=n
30 s=s+m-int(m/10)*10:m=int(m/10):if m>0 then 30
40 print n;"digit sum";s
50 next
60 data 1234,64738,49152,999
