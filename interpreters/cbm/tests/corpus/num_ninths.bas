10 for i=1 to 40:print i/9;i/11;i/13:next
