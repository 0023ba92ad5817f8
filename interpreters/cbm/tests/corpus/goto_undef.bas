10 goto 1000
