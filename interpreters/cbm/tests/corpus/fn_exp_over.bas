10 print exp(88.03)
