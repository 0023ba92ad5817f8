10 print 3 and 5;3 or 5;not 0;not -32768;not 1;-1 and 7;12 or 3
20 print 1=1 and 2=2;1=1 or 1=0;not 1=2
30 print 255 and -256;-1 or 0;32767 and -1
