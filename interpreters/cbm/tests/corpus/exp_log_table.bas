10 for i=1 to 20:print exp(i/4);log(i/4):next
