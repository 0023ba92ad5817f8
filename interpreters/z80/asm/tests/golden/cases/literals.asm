; Number and character literals both assemblers read the same way.
	org 100h
	ld a,0FFh
	ld a,$FF
	ld a,0xff
	ld a,%11110000
	ld a,10101010b
	ld a,17o
	ld a,255
	ld a,'z'
	ld a,"0"+9
	ld hl,0ABCDh
	ld hl,$abcd
	ld hl,0xABCD
	ld de,&h10
	ld bc,'A'+1
	cp 'q'
	ret
