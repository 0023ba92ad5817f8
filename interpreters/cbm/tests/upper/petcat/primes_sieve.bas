10 rem sieve of eratosthenes
20 dim s(200)
30 for i=2 to 200
40 if s(i) then 70
50 print i;
60 for j=i*i to 200 step i:s(j)=1:next
70 next
80 print
