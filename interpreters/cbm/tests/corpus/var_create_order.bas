10 print peek(47)-peek(45):a=1:print peek(47)-peek(45)
20 b$="x":print peek(47)-peek(45):c%=1:print peek(47)-peek(45)
