10 print peek(47)+256*peek(48);peek(49)+256*peek(50)
20 dim x(3):print peek(49)+256*peek(50)
30 y=1:print peek(47)+256*peek(48);peek(49)+256*peek(50)
