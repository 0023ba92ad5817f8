10 for x=0 to 1 step .1:print x;:next
20 for x=1 to 0 step -.1:print x;:next
