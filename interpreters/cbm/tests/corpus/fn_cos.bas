10 for i=-10 to 10 step .5:print cos(i);:next
20 print cos(0);cos(3.14159265);cos(3.14159265/3);cos(1e5)
