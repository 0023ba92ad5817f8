10 for d=0 to 360 step 15:r=d*3.14159265/180:print d;sin(r);cos(r):next
