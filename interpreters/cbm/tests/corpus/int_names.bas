10 ab%=1:ab=2:ab$="x":print ab%;ab;ab$
20 l%=3:l2=4:print l%;l2
30 win=5:print wi
