10 print q;q$;"/";q%
20 print peek(45)+256*peek(46)-(peek(47)+256*peek(48))
