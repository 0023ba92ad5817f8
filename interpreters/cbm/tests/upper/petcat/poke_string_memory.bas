10 rem write a message into memory
20 a$="ready"
30 for i=1 to len(a$):poke 49151+i,asc(mid$(a$,i,1)):next
40 for i=1 to len(a$):print chr$(peek(49151+i));:next:print
