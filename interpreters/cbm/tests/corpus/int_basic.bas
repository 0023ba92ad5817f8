10 a%=5:b%=-3:print a%;b%;a%*b%;a%/b%;a%+b%
20 a%=-1.5:print a%:a%=32767.9:print a%:a%=-32768:print a%
30 a%=2.5:print a%;int(-2.5)
