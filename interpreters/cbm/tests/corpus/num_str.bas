10 for i=-5 to 5:a$=str$(i*1.5):print len(a$);a$;"/":next
20 print str$(1e20);str$(-1e-20);str$(0)
