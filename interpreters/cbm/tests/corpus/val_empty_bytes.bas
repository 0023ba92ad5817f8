10 rem val("") clears only the fac's exponent and sign: a stored zero keeps the
20 rem string's address and its temporary descriptor's address in its bytes
30 a=val(""):gosub 900
40 a=val(""+""):gosub 900
50 b$="x":a=val(left$(b$,0)+""):gosub 900
60 a=val(""):print a;a=0;val("")=0;val("")+1
70 end
900 p=peek(45)+256*peek(46):for i=0 to 6:print peek(p+i);:next:print:return
