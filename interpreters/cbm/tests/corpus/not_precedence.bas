10 print not 1=1;not 0 and 1;not (1 and 0);-not 0
