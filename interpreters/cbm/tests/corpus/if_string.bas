10 a$="x":if a$="x" then print "yes"
20 if a$ then print "truthy"
30 b$="":if b$ then print "empty"
