10 on -1 goto 10
