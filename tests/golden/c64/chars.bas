10 rem every screen code in both character sets, every colour, and pokes to the two rams
20 print "{clr}";:poke 53280,0:poke 53281,11
30 for i=0 to 255:poke 1024+i,i:poke 55296+i,i and 15:next
40 print "{home}{down}{down}{down}{down}{down}{down}{down}";
50 for i=0 to 15:poke 646,i:print chr$(18);chr$(65+i);chr$(146);chr$(65+i);:next
60 print:print "{wht}quote: ";chr$(34);"{down}{up}{rght}{left}{clr}{home}{red}{rvon}";chr$(34)
70 print "{lblu}insert: abc{left}{left}{inst}{inst}xy"
80 print "{gry3}{CBM-A}{CBM-S}{CBM-Z}{CBM-X} {SHIFT-*}{SHIFT-+} ~"
90 for i=0 to 255:poke 1504+i,i:poke 55776+i,15-(i and 15):next
100 print "{home}";:for i=1 to 20:print:next
110 wait 198,15:get k$:if k$="l" then print "{swlc}";
120 print "charset: abc ABC"
