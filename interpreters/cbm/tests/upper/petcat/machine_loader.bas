10 rem machine code loader (not called)
20 for i=0 to 11:read a:poke 49152+i,a:c=c+a:next
30 if c<>1426 then print "checksum error";c:end
40 print "loaded, sys 49152 to start"
50 data 169,0,141,32,208,141,33,208,96,234,234,234
