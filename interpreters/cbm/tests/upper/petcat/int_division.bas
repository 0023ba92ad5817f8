10 rem divide and remainder
20 for k=1 to 4:read a,b
30 q=int(a/b):r=a-q*b
40 print a;"/";b;"=";q;"r";r
50 next
60 data 17,5,100,7,64,8,-7,2
