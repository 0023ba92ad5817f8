10 rem bouncing ball positions
20 x=1:dx=1
30 for t=1 to 20
40 print spc(x);"o"
50 x=x+dx:if x=1 or x=10 then dx=-dx
60 next
