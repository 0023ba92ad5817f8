10 print chr$(256)
