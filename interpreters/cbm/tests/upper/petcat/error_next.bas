10 rem next without for
20 for i=1 to 2:print i:next
30 next j
