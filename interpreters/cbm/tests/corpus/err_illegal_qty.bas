10 poke 1,256
