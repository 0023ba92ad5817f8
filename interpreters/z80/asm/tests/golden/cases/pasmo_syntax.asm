; pasmo-only conveniences: labels and EQU without a colon, MOD/HIGH/LOW, REPT, DEFL, `ld a,(ix)`.
	org 0C000h
SIZE	equ 10
loop	ld a,(ix)
	ld b,(iy)
	dec a
	jr nz,loop
	db SIZE mod 3, high 1234h, low 1234h
	db 17 % 5
	rept 3
	inc hl
	endm
cnt	defl 1
	db cnt
cnt	defl cnt+1
	db cnt
	ret
