10 for i=0 to 15:print 2^i;(2^i=int(2^i));:next
20 print 3^20;7^7;(-3)^3;(-2)^4
