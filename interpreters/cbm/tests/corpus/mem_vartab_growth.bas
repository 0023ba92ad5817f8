10 v=peek(45)+256*peek(46):a=1:b=2:c=3:print peek(47)+256*peek(48)-v
