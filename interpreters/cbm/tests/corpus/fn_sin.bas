10 for i=-10 to 10 step .5:print sin(i);:next
20 print sin(1e6);sin(1e-6);sin(3.14159265/2);sin(3.14159265/6)
