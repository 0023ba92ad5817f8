10 poke 49152,123:print peek(49152)
20 poke 49153,peek(49152)+1:print peek(49153)
