10 rem garbage collection
20 for i=1 to 300
30 a$=str$(i)+"xyz"
40 next
50 print a$
