10 print exp(-89);exp(-200)
