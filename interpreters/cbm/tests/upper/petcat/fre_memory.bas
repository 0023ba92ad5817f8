10 rem free memory
20 a=fre(0)
30 dim b(100)
40 print a-fre(0)
