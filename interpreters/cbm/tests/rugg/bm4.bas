300 print"s"
400 k=0
500 k=k+1
510 a=k/2*3+4-5
600 if k<1000 then 500
700 print"e"
800 end
