10 rem hello loop
20 for i=1 to 5
30 print "hello world";i
40 next i
50 end
