10 x=rnd(-9):h=0:for i=1 to 500:x=rnd(1):y=rnd(1):if x*x+y*y<1 then h=h+1
20 next:print h;4*h/500
