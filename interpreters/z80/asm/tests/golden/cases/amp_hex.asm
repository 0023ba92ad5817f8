; `&FF` hex (pasmo syntax). z80asm reads it wrongly without an error.
	org 100h
	ld a,&FF
	nop
