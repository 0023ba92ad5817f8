10 for i=1 to 1 step 0:print i;:next:print "done"
