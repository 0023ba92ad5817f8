10 rem compare strings
20 read a$,b$
30 if a$<b$ then print a$;" before ";b$
40 if a$>b$ then print a$;" after ";b$
50 if a$=b$ then print "same"
60 if a$<>"end" then 20
70 data apple,banana,zebra,ant,mouse,mouse,end,end
