10 for i=1 to 20:print int(-i/3);int(i/3);:next
