10 rem clr forgets variables
20 a=5:b$="x"
30 clr
40 print a;"[";b$;"]"
