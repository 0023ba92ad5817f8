10 ab=1:abc=2:print ab;abxyz
20 a1=3:a12=4:print a1
30 x=7:x$="s":x%=9:print x;x$;x%
