10 rem strings from numbers
20 for i=1 to 5
30 a$=a$+str$(i*i)
40 next
50 print a$
