10 rem border flash
20 for c=0 to 15:poke 53280,c:poke 53281,15-c:next c
30 poke 53280,14:poke 53281,6
40 print "colours set"
