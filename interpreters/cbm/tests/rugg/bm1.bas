300 print"s"
400 for k=1 to 1000
500 next k
700 print"e"
800 end
