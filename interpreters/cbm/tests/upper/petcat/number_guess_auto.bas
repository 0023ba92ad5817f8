10 rem guess the number (the computer plays)
20 s=37:lo=1:hi=100:t=0
30 g=int((lo+hi)/2):t=t+1
40 print "guess";g;
50 if g<s then print "too low":lo=g+1:goto 30
60 if g>s then print "too high":hi=g-1:goto 30
70 print "right in";t;"tries"
