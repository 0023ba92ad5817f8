10 rem character set switch
20 poke 53272,23
30 print "lower case set"
40 poke 53272,21
50 print "upper case set"
