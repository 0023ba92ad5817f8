10 rem life on a 6x6 grid, 3 generations
20 dim g(7,7),h(7,7)
30 g(2,3)=1:g(3,3)=1:g(4,3)=1
40 for ge=1 to 3
50 for y=1 to 6:for x=1 to 6
60 n=g(x-1,y-1)+g(x,y-1)+g(x+1,y-1)+g(x-1,y)+g(x+1,y)
65 n=n+g(x-1,y+1)+g(x,y+1)+g(x+1,y+1)
70 h(x,y)=-(n=3 or (n=2 and g(x,y)=1))
80 next x,y
90 for y=1 to 6:for x=1 to 6:g(x,y)=h(x,y):print chr$(46+g(x,y)*2);
95 next:print:next
100 print
110 next
