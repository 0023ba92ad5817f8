10 cont
