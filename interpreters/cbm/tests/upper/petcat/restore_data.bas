10 rem restore and read again
20 for k=1 to 2
30 for i=1 to 3:read a$:print a$;" ";:next:print
40 restore
50 next
60 data red,green,blue
