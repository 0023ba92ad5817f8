10 rem palindromes
20 for k=1 to 4:read a$
30 p=1:l=len(a$)
40 for i=1 to int(l/2)
50 if mid$(a$,i,1)<>mid$(a$,l-i+1,1) then p=0
60 next
70 if p then print a$;" is a palindrome":goto 90
80 print a$;" is not"
90 next
100 data radar,commodore,level,abba
