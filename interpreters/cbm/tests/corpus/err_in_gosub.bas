10 gosub 30:end
20 
30 print 1/0
