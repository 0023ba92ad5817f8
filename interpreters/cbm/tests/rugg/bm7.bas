300 print"s"
400 k=0
430 dim m(5)
500 k=k+1
510 a=k/2*3+4-5
520 gosub 820
530 for l=1 to 5
535 m(l)=a
540 next l
600 if k<1000 then 500
700 print"e"
800 end
820 return
