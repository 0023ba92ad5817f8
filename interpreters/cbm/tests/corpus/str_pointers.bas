10 print peek(51)+256*peek(52);peek(55)+256*peek(56)
20 a$=chr$(65)+chr$(66):print peek(51)+256*peek(52)
30 b$=a$:print peek(51)+256*peek(52)
