5 rem the comma zone counts from the real column: cbmbasic has pos always 0
10 read a$,b:print a$,b
20 data "1", 2
