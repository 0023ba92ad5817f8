10 rem arrays without dim have 11 elements
20 for i=0 to 10:a(i)=i*i:next
30 print a(10)
40 a(11)=1
