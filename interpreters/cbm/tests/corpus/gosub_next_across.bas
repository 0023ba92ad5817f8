10 for i=1 to 2:gosub 30:end
20 
30 next
