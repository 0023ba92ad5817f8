10 rem fahrenheit to celsius
20 for f=0 to 212 step 20
30 c=int((f-32)*5/9*10+.5)/10
40 print f;"f =";c;"c"
50 next
