10 rem colour ram
20 for i=0 to 39:poke 1824+i,81:poke 56096+i,i and 15:next
30 print "done"
