10 print log(0)
