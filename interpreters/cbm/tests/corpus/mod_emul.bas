10 for i=0 to 20:print i-7*int(i/7);:next
