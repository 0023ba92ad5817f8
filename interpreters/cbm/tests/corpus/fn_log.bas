10 for i=1 to 30:print log(i);:next
20 print log(1e38);log(1e-38);log(.5);log(2.718281828)
