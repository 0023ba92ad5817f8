10 a%=100:b%=7:print a%/b%;int(a%/b%);a%-b%*int(a%/b%)
20 c%=a%/b%:print c%
