10 for i=-10 to 10:a%=i/3:print a%;:next
