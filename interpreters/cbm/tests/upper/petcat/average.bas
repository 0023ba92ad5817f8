10 rem average, min and max
20 mi=1e9:ma=-1e9:t=0
30 for i=1 to 10:read x:t=t+x
40 if x<mi then mi=x
50 if x>ma then ma=x
60 next
70 print "average";t/10;"min";mi;"max";ma
80 data 23,45,12,67,34,89,21,56,78,9
