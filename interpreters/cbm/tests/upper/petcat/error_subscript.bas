10 rem bad subscript
20 dim a(5)
30 for i=1 to 10:a(i)=i:print i;:next
