10 rem sid registers for a note
20 s=54272
30 for r=0 to 24:poke s+r,0:next
40 poke s+24,15:poke s+5,9:poke s+6,0
50 poke s+1,28:poke s,214:poke s+4,33
60 for d=1 to 100:next:poke s+4,32
70 print "note played"
