10 for i=1 to 6:read a$:print a$;"/";:next
20 data a,b
30 print "mid"
40 data c:data d
50 rem data x
60 data e,f
