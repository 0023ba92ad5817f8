10 print str$(12);str$(-12);"/"str$(1e9)
