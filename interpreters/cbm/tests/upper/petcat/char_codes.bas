10 rem character codes
20 for i=65 to 90
30 print chr$(i);asc(chr$(i));
40 next
50 print
