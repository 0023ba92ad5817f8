10 REM MORSE CODE
20 DIM M$(26)
30 FOR I=1 TO 26:READ M$(I):NEXT
40 A$="SOS C64"
50 FOR I=1 TO LEN(A$):C=ASC(MID$(A$,I,1))-64
60 IF C>=1 AND C<=26 THEN PRINT M$(C);" ";
70 NEXT:PRINT
80 DATA .-,-...,-.-.,-..,.,..-.,--.,....,..,.---,-.-,.-..,--
90 DATA -.,---,.--.,--.-,.-.,...,-,..-,...-,.--,-..-,-.--,--..
