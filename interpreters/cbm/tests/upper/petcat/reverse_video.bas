10 rem reverse video characters
20 for i=0 to 7:poke 1864+i,128+i+1:next
30 print peek(1864);peek(1871)
