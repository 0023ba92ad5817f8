10 rem count vowels
20 a$="super expander sixty four"
30 v=0
40 for i=1 to len(a$)
50 if instr=0 then c$=mid$(a$,i,1)
60 if c$="a" or c$="e" or c$="i" or c$="o" or c$="u" then v=v+1
70 next
80 print "vowels:";v
