10 print peek(-1)
