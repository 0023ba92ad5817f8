10 for a=43 to 56:print peek(a);:next
