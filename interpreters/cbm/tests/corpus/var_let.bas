10 let a=5:let b$="q":print a;b$
20 let c=a*2:print c
