10 for x=-3 to 3 step .25:print x;int(x);:next
20 print int(1e9+.5);int(-1e9-.5);int(2^31+.5)
