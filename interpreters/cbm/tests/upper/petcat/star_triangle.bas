10 rem triangle of stars
20 for i=1 to 8
30 print spc(8-i);
40 for j=1 to 2*i-1:print "*";:next
50 print
60 next
