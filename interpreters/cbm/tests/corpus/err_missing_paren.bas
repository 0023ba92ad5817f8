10 print sin(1
