10 for i=0 to 30:print sqr(i);:next
20 print sqr(1e38);sqr(1e-38);sqr(.25);sqr(2)
