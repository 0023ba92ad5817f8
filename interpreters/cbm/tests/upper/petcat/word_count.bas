10 rem count words
20 a$="the quick brown fox jumps over the lazy dog"
30 w=0:s=1
40 for i=1 to len(a$)
50 c$=mid$(a$,i,1)
60 if c$=" " then s=1:goto 80
70 if s then w=w+1:s=0
80 next
90 print "words:";w
