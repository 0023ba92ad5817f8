10 rem grades
20 for k=1 to 5:read s
30 g$="f"
40 if s>=50 then g$="d":if s>=60 then g$="c":if s>=70 then g$="b"
45 if s>=80 then g$="a"
50 print s;g$
60 next
70 data 95,72,55,81,30
