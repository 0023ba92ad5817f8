10 rem ? is print
20 print"short form"
30 print1+1;2*2
40 print
