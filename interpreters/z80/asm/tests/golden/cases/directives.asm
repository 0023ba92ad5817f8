; Directives and expression forms in the syntax pasmo and z80asm share.
	org 8000h
COUNT:	equ 5
WIDTH:	equ COUNT*2+1
BASE:	equ $C000
start:	ld hl,table
	ld b,COUNT
	ld de,BASE+WIDTH
	ld a,(table+2)
	ld (buffer),a
	jp start
table:	db 1,2,3,COUNT,WIDTH
	defb 0FFh,$80,0x7F,%1010,1010b
	db 'A',"B",'hello',"world"
	defm "message"
	dw table,start,1234h,0
	defw $,$+2,table-start
	ds 4
	defs 3,0AAh
	ds COUNT,'*'
buffer:	db 0
here:	dw here
	db 7 & 3, 8 | 1, 1 << 4, 128 >> 3
	db (3+4)*2, 100/7, 2+3*4, -1 & 0FFh, ~0 & 7
	dw -1, -2 & 0FFFFh
	db low_byte, high_byte
low_byte:	equ 34h
high_byte:	equ (1234h >> 8) & 0FFh
	ld a,low_byte
	ld ix,table
	ld a,(ix+2)
	ld (ix+COUNT),a
	ld (iy+WIDTH-1),b
	ld a,(iy-1)
	jr start2
start2:	djnz start2
