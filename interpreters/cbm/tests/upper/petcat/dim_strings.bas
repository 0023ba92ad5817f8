10 rem string array
20 dim d$(7)
30 for i=1 to 7:read d$(i):next
40 for i=7 to 1 step -1:print d$(i):next
50 data mon,tue,wed,thu,fri,sat,sun
