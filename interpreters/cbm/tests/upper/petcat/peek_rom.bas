10 rem poke and peek ram
20 for a=49152 to 49159:poke a,a-49152+200:next
30 s=0:for a=49152 to 49159:s=s+peek(a):next
40 print "sum";s
