10 for i%=1 to 5:next
