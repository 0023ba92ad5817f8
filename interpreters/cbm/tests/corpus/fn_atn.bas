10 for i=-10 to 10:print atn(i);:next
20 print atn(1e30);atn(-1e30);atn(1e-30);atn(1)*4
