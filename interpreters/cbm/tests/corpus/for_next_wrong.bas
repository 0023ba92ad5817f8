10 for i=1 to 2:next j
