10 rem atn and tan
20 for x=-2 to 2
30 print x;atn(x);tan(x/2)
40 next
