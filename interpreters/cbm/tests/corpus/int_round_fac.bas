10 a%=23/(1/5):print a%;int(23/(1/5))
20 a%=-1/3*3:print a%
