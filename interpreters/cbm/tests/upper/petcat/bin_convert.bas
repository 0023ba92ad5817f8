10 rem decimal to binary
20 for n=0 to 16 step 3
30 b$="":v=n
40 b$=chr$(48+v-int(v/2)*2)+b$:v=int(v/2)
50 if v>0 then 40
60 print n;"=";b$
70 next
