10 rem morse code
20 dim m$(26)
30 for i=1 to 26:read m$(i):next
40 a$="sos c64"
50 for i=1 to len(a$):c=asc(mid$(a$,i,1))-64
60 if c>=1 and c<=26 then print m$(c);" ";
70 next:print
80 data .-,-...,-.-.,-..,.,..-.,--.,....,..,.---,-.-,.-..,--
90 data -.,---,.--.,--.-,.-.,...,-,..-,...-,.--,-..-,-.--,--..
