10 rem pi from a series
20 s=0:d=1
30 for i=0 to 200
40 s=s+d/(2*i+1):d=-d
50 next
60 print 4*s;4*atn(1)
