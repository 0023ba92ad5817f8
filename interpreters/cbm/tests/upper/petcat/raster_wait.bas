10 rem poke the screen colours in a loop
20 for i=1 to 3
30 poke 53280,i:poke 53281,i+1
40 next
50 print "border";i
