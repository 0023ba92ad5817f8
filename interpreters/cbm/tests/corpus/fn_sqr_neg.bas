10 print sqr(-1)
