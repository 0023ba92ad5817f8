10 rem a negative number to a power of 2^31 or more: the sign comes from charac,
20 rem ($07), which int leaves alone then: the last int, exp, sin or scan decides
30 a=int(5):print (-1)^2147483648
40 a=int(4):print (-1)^2147483648
50 a=int(7):print (-1)^4294967296;(-1)^1e10
60 a=int(-3):b=1e15:print (-1)^b
70 print (-1)^b
80 a=sin(7):x=(-1)^b:print x
90 a=exp(3):x=(-1)^b:print x
100 a=int(9):gosub 300:x=(-1)^b:print x
110 a=int(9):x=(-1)^b:print x;(-1)^b
120 a=int(9):print (-1)^(2^32)
130 a=int(9):print (-1)^2^32;-1^b
140 a=int(1):print (-1)^2147483647;(-1)^2147483646
150 a=int(3):x=(-1.0000000005)^4294967296:print x
160 a=int(3):x=(-.5)^b:print x
170 a=int(3):x=(-1)^(b+int(1)):print x
180 a=int(2):x=(-1)^(b+int(1)):print x
190 a=int(3):if (-1)^b<0 then print "odd"
200 a=int(3):print (-2)^b
300 a=int(8):return
