10 for i=-3 to 3 step .25:print tan(i);:next
20 print tan(3.14159265/4);tan(1e-6)
