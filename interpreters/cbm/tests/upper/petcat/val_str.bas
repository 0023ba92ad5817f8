10 rem val and str$
20 for k=1 to 6:read a$
30 print val(a$)
40 next
50 data 123,-4.5,1e3,12ab,.5,xyz
