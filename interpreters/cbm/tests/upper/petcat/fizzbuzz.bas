10 rem fizz buzz
20 for i=1 to 20
30 f=(i/3=int(i/3)):b=(i/5=int(i/5))
40 if f then print "fizz";
50 if b then print "buzz";
60 if not(f or b) then print i;
70 print
80 next
