10 rem stuff the keyboard buffer
20 poke 631,82:poke 632,85:poke 633,78:poke 634,13
30 poke 198,4
40 print peek(198);peek(631);peek(634)
50 poke 198,0:rem empty it again
