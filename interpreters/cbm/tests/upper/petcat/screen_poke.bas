10 rem poke to the screen and read it back
20 for i=0 to 9:poke 1824+i,i+1:next
30 for i=0 to 9:print peek(1824+i);:next:print
