10 rem sprite x positions over 255
20 v=53248
30 for x=250 to 260 step 5
40 poke v,x and 255:poke v+16,-(x>255)
50 print x;x and 255;-(x>255)
60 next
