10 rem charac ($07): int leaves its low byte there, text scans their delimiters
20 print peek(7):a=int(3.5):p=peek(7):print p:a=int(-3.5):p=peek(7):print p
30 a=int(7):a$="x":p=peek(7):print "literal";p
40 a=int(7):rem
50 p=peek(7):print "rem";p
60 a=int(7):goto 70
70 p=peek(7):print "goto";p
80 a=int(7):data 1
90 p=peek(7):print "data";p
100 a=int(7):data "x
110 p=peek(7):print "data quote";p
120 a=exp(3):p=peek(7):print "exp";p:a=sin(100):p=peek(7):print "sin";p
130 a=2^31:p=peek(7):print "pow";p:a=sqr(9):p=peek(7):print "sqr";p
140 a=tan(9):p=peek(7):print "tan";p:a=cos(9):p=peek(7):print "cos";p
150 a=int(7):b=atn(9)+log(9)+rnd(1)+abs(-3)+sgn(2):p=peek(7):print "others";p
160 a=int(7):for i=1 to 1:p=peek(7):next:print "for";p
170 a=int(7):for i=1 to len("a"):p=peek(7):next:print "for string";p
180 a=int(7):gosub 1000:p=peek(7):print "return";p
190 a=int(7):if 0 then 5
200 p=peek(7):print "if false";p
210 a=int(7):if 1 then p=peek(7):print "if true";p
220 a=int(7):on 0 goto 51:p=peek(7):print "on 0";p
230 a=int(7):on 1 goto 231
231 p=peek(7):print "on 1";p
240 a=int(7):on 3 goto 50,63:p=peek(7):print "on none";p
250 a=int(7):def fn f(x)=x*2:p=peek(7):print "def";p
260 a=int(7):b=fn f(3):p=peek(7):print "fn";p
270 a=int(7):read r:p=peek(7):print "read 1 from line 80";p
280 a=int(7):read r$:p=peek(7):print "read quoted x from line 100";p
290 a=int(7):read r$:p=peek(7):print "read 5 as text";p
300 a=int(7):read r$:p=peek(7):print "read ab";p
310 a=int(7):restore:read r:p=peek(7):print "restore, read";p
320 a=int(7):b$=str$(5):p=peek(7):print "str$";p
330 a=int(7):b$=chr$(65)+left$("ab",1):p=peek(7):print "chr$";p
340 a=int(7):b$=ti$:p=peek(7):print "ti$";p
350 a=int(7):clr:p=peek(7):print "clr";p
360 a=int(7):dim z(3):poke 900,1:b=fre(0):p=peek(7):print "dim poke fre";p
370 a=int(7):b=val("12"):p=peek(7):print "val";p
380 a=int(7):b$="":b$=b$+b$:p=peek(7):print "concat";p
390 a=int(7):b=not 3:b=b$<c$:p=peek(7):print "not, compare";p
400 a=int(7):print b$;:p=peek(7):print "print string";p
410 a=int(7):print 5;:p=peek(7):print "print number";p
420 a=int(7):print;:print tab(3);spc(2);:p=peek(7):print "print";p
430 a=int(7):b=0^2:p=peek(7):print "zero power";p
440 a=int(7):b=2^0:p=peek(7):print "power zero";p
450 a=int(7):b=(-2)^3:p=peek(7):print "negative power";p
460 a=int(7):b=exp(-100):p=peek(7):print "exp underflow";p
470 a=int(7):b=int(3e9):p=peek(7):print "int of 3e9";p
480 a=int(7):b=sin(1e10):p=peek(7):print "sin of 1e10";p
490 a=int(7):run 500
500 p=peek(7):print "run n";p
510 end
1000 a=int(9):return
1010 data 5,ab,"cd"
1020 data ef
