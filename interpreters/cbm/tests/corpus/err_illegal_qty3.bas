10 print chr$(-1)
