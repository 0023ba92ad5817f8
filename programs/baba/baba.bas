1 rem baba is you: a demake in commodore 64 basic v2, written for
2 rem retro (issue 16) to the design notes in the seeds. how to play,
3 rem the rules and the editor keys: docs/baba.md. the names follow
4 rem the notes: gr$ lv$ ml w h mx mu fnpp ru% tr% dr l% pf% ud% dl ud u%
10 w=10:h=18:mx=w*h-1:mu=2000:sm=49152:sc=1024
15 ml=10
20 dim gr$(31),nm$(31),pf%(mx),ud%(mu,2),u%(mx+mx+1),ru%(31),tr%(7),pw%(31)
25 dim lv$(ml*6),ls%(ml),ch%(w+h),co%(w+h)
30 def fnpp(x)=ru%(pf%(x)and 31)
35 gosub 8000
40 poke 53272,21:poke 53281,6:poke 646,14
100 rem ---- title screen ----
105 poke 53280,14:print"{clr}{down}{down}{down}"spc(11)"{wht}{rvon}baba{rvof} {rvon} is {rvof} {lred}{rvon} you{rvof}"
110 print"{down}{lblu}   a rule-pushing puzzle in commodore"
115 print"           64 basic version 2"
120 print"{down}{down}{wht} the rules are words on the field. push"
125 print" them into lines like {yel}{rvon}flag{rvof} {wht}{rvon} is {rvof} {yel}{rvon} win{rvof}"
130 print"{wht} to change what things do."
135 print"{down}{gry3} crsr keys  move       z  undo"
140 print" r  restart the level  n  skip a level"
145 print" e  level editor       d  level as data"
150 print"{down}{down}{yel}          press a key to start"
155 gosub 390:l%=1
200 rem ---- start level l% ----
205 gosub 901:t=0:dl=0:ud=0:ms$=""
210 gosub 500:gosub 600:dl=0:gosub 750:gosub 330:goto 405
400 rem ---- wait for a key and play it ----
405 gosub 350:gosub 390:k=asc(k$+chr$(0)):d=0
410 if k=29 then d=1
411 if k=157 then d=-1
412 if k=17 then d=w
413 if k=145 then d=-w
420 if d then gosub 1000:if wn then 1300
425 if k$="z" then gosub 1200
430 if k$="r" then 200
435 if k$="e" then 2000
440 if k$="d" then 2500
445 if k$="n" then 1310
450 goto 405
300 rem ---- draw the tile at x: poke its 4 screen codes and colour ----
301 g$=gr$(pf%(x)and 31):a=sc+4*x:poke a,asc(mid$(g$,2)):poke a+1,asc(mid$(g$,3))
302 poke a+2,asc(mid$(g$,4)):poke a+3,asc(mid$(g$,5)):a=a+54272:c=asc(g$)
303 poke a,c:poke a+1,c:poke a+2,c:poke a+3,c:return
330 rem ---- draw the whole screen ----
331 print"{clr}";:for x=0 to mx:gosub 301:next
332 print"{home}"left$(dn$,22)"{gry3} crsr move  z undo  r restart  e edit";
333 return
350 rem ---- status lines ----
351 print"{home}"left$(dn$,19)"{wht} level"str$(l%)" of"str$(ml)"   turn"str$(t)"      "
352 print"{yel} "left$(ms$+sp$,38):return
390 poke 53280,14:wait 198,15:get k$:return
500 rem ---- read the rules from the words on the field ----
501 poke 53280,5:for i=0 to 7:ru%(i)=0:tr%(i)=0:next
505 for x=0 to mx:if (pf%(x)and 31)=16 then gosub 520
510 next:poke 53280,3:return
520 c=x-int(x/w)*w
525 if c>0 and c<w-1 then a=pf%(x-1)and 31:b=pf%(x+1)and 31:gosub 540
530 if x>=w and x+w<=mx then a=pf%(x-w)and 31:b=pf%(x+w)and 31:gosub 540
535 return
540 if a<9 or a>15 then return
545 a=a-8:if b>16 and b<27 then ru%(a)=ru%(a) or pw%(b):return
550 if b>8 and b<16 then if tr%(a)<>a then tr%(a)=b-8
555 return
600 rem ---- noun is noun: transform every such object ----
601 tf=0:for i=1 to 7:if tr%(i)<>i then if tr%(i) then tf=1
605 next:if tf=0 then return
610 for x=0 to mx:n=pf%(x):if n=0 then 630
615 f=n and 31:b=int(n/32):if f<8 then if tr%(f) then f=tr%(f)
620 if tr%(b) then b=tr%(b)
625 v=b*32+f:if v<>n then gosub 700
630 next:return
700 rem ---- set tile x to v, keeping the old value in ud% ----
701 if dl>mu then gosub 720
705 ud%(dl,0)=x:ud%(dl,1)=pf%(x):ud%(dl,2)=t:dl=dl+1
710 if (pf%(x)and 31)>7 or (v and 31)>7 then tm=1
715 pf%(x)=v:return
720 rem undo memory full: forget the oldest half
721 hf=int(mu/2):for j=0 to mu-hf:ud%(j,0)=ud%(j+hf,0):ud%(j,1)=ud%(j+hf,1)
722 ud%(j,2)=ud%(j+hf,2):next:dl=dl-hf:ud=ud-hf:if ud<0 then ud=0
723 return
750 rem ---- after a move: interactions, the win, the you list ----
751 nu=0:wn=0:for x=0 to mx:n=pf%(x):if n=0 then 790
760 f=n and 31:b=int(n/32):rf=ru%(f):rb=ru%(b):r=rf or rb:if b=0 then 780
765 dr=0:if r and 64 then dr=3
766 if rf and 1 then if rb and 128 then dr=3
767 if rb and 1 then if rf and 128 then dr=3
768 if rf and 16 then if rb and 32 then dr=3
769 if rb and 16 then if rf and 32 then dr=3
770 if rf and 512 then if rb and 256 then dr=dr or 1
771 if rb and 512 then if rf and 256 then dr=dr or 2
772 if dr=0 then 780
773 v=0:if dr=1 then v=b
774 if dr=2 then v=f
775 gosub 700:n=v:if n then 760
776 goto 790
780 if (r and 3)=3 then wn=1
782 if rf and 1 then u%(nu)=x:nu=nu+1
784 if b then if rb and 1 then u%(nu)=x:nu=nu+1
790 next:ms$="":if nu=0 then ms$="no you: z undo, r restart"
791 return
800 rem ---- y = the tile next to p in direction d, -1 off the field ----
801 y=p+d:if y<0 or y>mx then y=-1:return
805 if d=1 then if y-int(y/w)*w=0 then y=-1
806 if d=-1 then if p-int(p/w)*w=0 then y=-1
810 return
890 rem ---- unpack level l% from lv$() into pf% ----
891 rem where the notes doubt the format we decided: 33-47 leave q-32
892 rem tiles empty (33 is one); 49-63 repeat the tile before q-48 more
893 rem times; 191 goes on in the next string without starting the
894 rem level again; 252 stands for a quote, and so does 188, which is
895 rem what the screen editor reads back for the same glyph when a d
896 rem line is entered; 161-167 (our addition) put thing q-160 behind
897 rem the next tile, so the editor's backgrounds survive d.
901 for i=0 to mx:pf%(i)=0:next:i=0:k=ls%(l%):lv$=lv$(k):x=1:bk=0
905 if x>len(lv$) or i>mx then return
910 q=asc(mid$(lv$,x)):x=x+1
915 if q=191 then k=k+1:lv$=lv$(k):x=1:goto 905
920 if q=252 or q=188 then q=34
925 if q>32 and q<48 then i=i+q-32:goto 905
930 if q>48 and q<64 and i>0 then for j=1 to q-48:if i<=mx then pf%(i)=pf%(i-1):i=i+1
935 if q>48 and q<64 and i>0 then next:goto 905
940 if q>160 and q<168 then bk=q-160:goto 905
945 if q>63 and q<96 then pf%(i)=q-64+32*bk:bk=0:i=i+1:goto 905
950 if q>191 and q<224 then pf%(i)=q-192+32*bk:bk=0:i=i+1:if i<=mx then pf%(i)=16:i=i+1
955 goto 905
1000 rem ---- one turn: every you object steps d ----
1001 if nu=0 then return
1005 t=t+1:ud=dl:tm=0:wn=0
1010 if d>0 then for q=nu-1 to 0 step -1:x=u%(q):gosub 1100:next:goto 1030
1020 for q=0 to nu-1:x=u%(q):gosub 1100:next
1030 if dl=ud then t=t-1:return
1035 if tm then gosub 500:gosub 600
1040 tm=0:gosub 750:if tm then 1035
1045 for i=ud to dl-1:x=ud%(i,0):gosub 301:next:return
1100 rem move the you object at x, pushing what is push
1101 n=pf%(x):f=n and 31:b=int(n/32)
1105 if fnpp(x)and 1 then m=f:goto 1115
1110 if ru%(b)and 1 then m=b:goto 1115
1112 return
1115 xo=x:p=x:k=0:o=m
1120 gosub 801:if y<0 then return
1125 n=pf%(y):f=n and 31:b=int(n/32):r=ru%(f) or ru%(b)
1130 if r and 8 then 1160
1135 if b then return
1140 if r and 4 then return
1145 if r and 16 then if (ru%(o)and 32)=0 then return
1150 if k then for i=k-1 to 0 step -1:a=ch%(i):o=co%(i):c=a+d:gosub 1180:next
1155 a=xo:o=m:c=xo+d:gosub 1180:return
1160 if b then if ru%(f)and ru%(b)and 8 then return
1165 o=f:if (ru%(f)and 8)=0 then o=b
1170 ch%(k)=y:co%(k)=o:k=k+1:p=y:goto 1120
1180 n=pf%(a):f=n and 31:b=int(n/32):v=f:if f=o then v=b
1182 x=a:gosub 700:n=pf%(c):v=o:if n then v=o+32*n
1186 x=c:gosub 700:return
1200 rem ---- undo the last turn ----
1201 if dl=0 then return
1205 q=ud%(dl-1,2)
1210 if dl>0 then if ud%(dl-1,2)=q then dl=dl-1:x=ud%(dl,0):pf%(x)=ud%(dl,1):gosub 301:goto 1210
1215 t=q-1:gosub 500:gosub 750:return
1300 rem ---- the level is won ----
1301 ms$="solved! press a key":gosub 350:gosub 390
1310 l%=l%+1:if l%<=ml then 200
1400 rem ---- all levels solved ----
1405 poke 53280,7:print"{clr}{down}{down}{down}{down}"spc(8)"{wht}{rvon}baba{rvof} {rvon} is {rvof} {yel}{rvon} win{rvof}"
1410 print"{down}{down}{lblu}   you solved all"str$(ml)" levels. well done!"
1415 print"{down}{down}{gry3}   press a key for the title screen"
1420 gosub 390:goto 100
2000 rem ---- level editor ----
2001 ex=0:ms$="editor: f1 keys, f7 play"
2005 gosub 350
2010 a=sc+4*ex:n=pf%(ex):poke a,62:poke a+1,int(n/32):poke a+2,n and 31:poke a+3,60
2011 a=a+54272:poke a,1:poke a+1,1:poke a+2,1:poke a+3,1
2015 gosub 390:k=asc(k$+chr$(0)):x=ex:gosub 301
2020 if k=29 then ex=ex+1:if ex>mx then ex=0
2021 if k=157 then ex=ex-1:if ex<0 then ex=mx
2022 if k=17 then ex=ex+w:if ex>mx then ex=ex-mx-1
2023 if k=145 then ex=ex-w:if ex<0 then ex=ex+mx+1
2030 n=pf%(ex):f=n and 31:b=int(n/32)
2035 if k>63 and k<96 then f=k-64:gosub 2100
2040 if k>192 and k<200 then b=k-192:gosub 2100
2045 if k=20 then f=0:gosub 2100
2050 if k=133 then gosub 2200:gosub 330:goto 2005
2055 if k=135 then poke 53280,1:for i=0 to mx:poke sm+i,pf%(i):next:ms$="saved to 49152":goto 2005
2060 if k=134 then poke 53280,1:for i=0 to mx:pf%(i)=peek(sm+i):next:gosub 330:goto 2005
2065 if k=136 then t=0:dl=0:ud=0:gosub 500:gosub 600:dl=0:gosub 750:gosub 330:goto 405
2070 goto 2010
2100 if f=0 then f=b:b=0
2105 pf%(ex)=b*32+f:x=ex:gosub 301:return
2200 rem legend of the tiles
2201 print"{clr}{wht} tile letters (shift+a-g: behind)"
2205 for i=0 to 15:print" "chr$(64+i)" "nm$(i)tab(20)chr$(80+i)" "nm$(i+16):next
2210 print"{gry3} del remove f5 save f3 restore f7 play"
2215 print" crsr keys move the cursor  {yel}press a key";
2220 goto 390
2500 rem ---- print the level as data lines, then stop ----
2501 print"{clr}{lblu}";:ln=9000+10*(ml+1):e$="":x=0
2510 if x>mx then 2580
2515 n=pf%(x):if n=0 then 2550
2520 if x>0 then if n=pf%(x-1) then 2560
2525 gosub 2590:f=n and 31:b=int(n/32):if b then e$=e$+chr$(160+b)
2530 if x<mx then if pf%(x+1)=16 then e$=e$+chr$(192+f):x=x+2:goto 2570
2535 e$=e$+chr$(64+f):x=x+1:goto 2570
2550 k=0
2551 if x+k<=mx then if pf%(x+k)=0 then k=k+1:goto 2551
2552 if x+k>mx then 2580
2553 x=x+k:gosub 2590
2554 if k>15 then e$=e$+"/":k=k-15:goto 2554
2555 c=32+k:if c=34 then c=252
2556 e$=e$+chr$(c):goto 2570
2560 k=0:gosub 2590
2561 if x<=mx and k<15 then if pf%(x)=n then k=k+1:x=x+1:goto 2561
2562 e$=e$+chr$(48+k)
2570 goto 2510
2580 gosub 2595:print"15 ml="mid$(str$(ml+1),2):end
2590 if len(e$)>=50 then e$=e$+chr$(191):gosub 2595
2591 return
2595 print mid$(str$(ln),2)" data"chr$(34)e$chr$(34):ln=ln+1:e$="":return
8000 rem ---- tables, tile graphics and levels ----
8001 for i=8 to 31:ru%(i)=8:next:for i=17 to 26:pw%(i)=2^(i-17):next
8005 dn$="{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}{down}"
8006 sp$="                                      "
8010 for i=0 to 31:read a$,c,nm$(i):gr$(i)=chr$(c):rv=0
8015 for j=1 to len(a$):q=asc(mid$(a$,j)):if q=18 then rv=128:goto 8040
8020 if q=146 then rv=0:goto 8040
8025 gosub 8100:gr$(i)=gr$(i)+chr$(q+rv)
8040 next j,i
8050 k=0:for l=1 to ml:ls%(l)=k
8055 read lv$(k):k=k+1:if right$(lv$(k-1),1)=chr$(191) then 8055
8060 next:return
8100 rem petscii q to its screen code
8101 if q=255 then q=94:return
8105 if q>191 then q=q-128:return
8110 if q>159 then q=q-64:return
8115 if q>95 then q=q-32:return
8120 if q>63 then q=q-64
8125 return
8500 rem tile graphics: 4 characters, colour, name. tiles 0-7 are things,
8501 rem 8-15 nouns (8 is unused), 16 is, 17-26 properties, 27-31 unused
8510 data"    ",0,"empty","UQQI",1,"baba","{CBM-+}{CBM-+}{CBM-+}{CBM-+}",12,"wall"
8511 data"U{rvon}  {rvof}I",8,"rock"," {SHIFT--}{CBM-*} ",7,"flag"
8512 data"{rvon}{SHIFT-*}{SHIFT-*}{SHIFT-*}{SHIFT-*}{rvof}",14,"water"
8513 data"{rvon}{CBM-+}{CBM-+}{CBM-+}{CBM-+}{rvof}",2,"lava","{rvon} Q  {rvof}",10,"door"
8514 data" ?? ",12,"unused"
8520 data"{rvon}baba{rvof}",1,"word baba","{rvon}wall{rvof}",12,"word wall"
8521 data"{rvon}rock{rvof}",8,"word rock","{rvon}flag{rvof}",7,"word flag"
8522 data"{rvon}watr{rvof}",14,"word water","{rvon}lava{rvof}",2,"word lava"
8523 data"{rvon}door{rvof}",10,"word door"
8530 data"{rvon} is {rvof}",1,"is","{rvon} you{rvof}",10,"you","{rvon} win{rvof}",7,"win"
8531 data"{rvon}stop{rvof}",13,"stop","{rvon}push{rvof}",12,"push"
8532 data"{rvon}shut{rvof}",2,"shut","{rvon}open{rvof}",15,"open"
8533 data"{rvon}sink{rvof}",3,"sink","{rvon}lose{rvof}",4,"lose"
8534 data"{rvon} hot{rvof}",8,"hot","{rvon}melt{rvof}",14,"melt"
8535 data" ?? ",12,"unused"," ?? ",12,"unused"," ?? ",12,"unused"
8536 data" ?? ",12,"unused"," ?? ",12,"unused"
9000 rem levels: one block of ten lines each from 9010. a string is
9001 rem a level in the compressed format (docs/baba.md); {CBM-B} at its
9002 rem end continues it in the next string. d in the game adds one.
9010 data"+Iq/{$fc}Lr/-a///(d"
9020 data"*Iq'Lr'Js'Kt/{$fc}b:(b1!a!c{$fc}d!b1(b:"
9030 data"Iq/{$fc}Js/&b5$b$b!a{$fc}b{$fc}d!b$b$b$b5Lr"
9040 data"*Iq/$L//*r/$a//{$fc}d"
9050 data"Iq'Lr'Js'b9+K#l/a.c{$fc}b9"
9060 data"Iq!Lr#Mw!Kt/*a!c/e9.d"
9070 data"Iq!Lr#Ou!Kv#Js!Kt/)a{$fc}c/b3gb4.d"
9080 data"Iq!Lr#Ny/{$fc}Iz/%a/!f9/!d"
9090 data"Iq!Kq#Js!Nx#Lr'b:!a{$fc}c#b8fb8!b8db:"
9100 data"Iq/'j)p&a!rs////$b:(b1#d$b1(b:*L"
