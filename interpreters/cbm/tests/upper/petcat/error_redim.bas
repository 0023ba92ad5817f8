10 rem redim
20 dim a(10)
30 dim a(20)
