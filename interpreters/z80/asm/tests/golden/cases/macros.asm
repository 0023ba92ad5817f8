; Macros with parameters (pasmo syntax; z80asm 1.8 hangs on macro definitions with parameters).
	org 8000h
SCREEN	equ 4000h
ATTR	equ 5800h
fill	macro addr, count, value
	ld hl,addr
	ld b,count
	ld a,value
	endm
setcol	macro col
	ld a,col*8
	ld (ATTR),a
	endm
main	fill SCREEN, 32, 0
	fill ATTR, 8, 7
	setcol 2
	setcol 5
	ret
