10 rem keywords without spaces
20 fori=1to3:printi*i;:nexti
30 ifi>3thenprint"done"
