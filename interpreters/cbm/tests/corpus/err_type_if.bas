10 if "a" then print 1
