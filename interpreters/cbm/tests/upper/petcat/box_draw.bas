10 rem a box of characters
20 w=12:h=5
30 print "+";:for i=1 to w:print "-";:next:print "+"
40 for j=1 to h:print "!";spc(w);"!":next
50 print "+";:for i=1 to w:print "-";:next:print "+"
