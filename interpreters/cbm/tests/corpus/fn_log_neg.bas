10 print log(-1)
