10 a$="abcdefgh":for i=0 to 9:print left$(a$,i);"/";right$(a$,i):next
