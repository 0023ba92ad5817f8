10 rem sine wave in text
20 for a=0 to 6.3 step .4
30 x=int(15+14*sin(a))
40 print spc(x);"*"
50 next
