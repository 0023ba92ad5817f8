10 rem fill and check a block
20 for a=828 to 1019:poke a,a and 255:next
30 e=0:for a=828 to 1019:if peek(a)<>(a and 255) then e=e+1
40 next:print "errors";e
