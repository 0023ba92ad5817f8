10 for i=-20 to 20:print exp(i);:next
20 print exp(88);exp(-88);exp(.5);exp(1e-9)
