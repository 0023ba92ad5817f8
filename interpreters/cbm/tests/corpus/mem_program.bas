10 for a=2049 to 2070:print peek(a);:next
