10 print fre(0):a=1:print fre(0):dim b(10):print fre(0)
20 c$="xy"+"z":print fre(0)
