10 x=rnd(-42):p=0:for i=1 to 200:p=p+sgn(rnd(1)-.5):next:print p
