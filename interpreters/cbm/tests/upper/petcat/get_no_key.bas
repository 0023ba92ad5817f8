10 rem get with no key waiting
20 get a$
30 print len(a$)
40 print "no key"
