; pasmo-compatible behaviours of issue #21 (strings, PROC/LOCAL, HX labels, macro parameters)
	org 8000h
	db '\n', 'a\b'
	db 'It''s', 0
	cp ''''
	ld a,'\'
first:	proc
	local lp
lp:	djnz lp
	ret
	endp
second:	proc
	local lp
lp:	jr lp
	endp
HX	equ 5
	ld a,HX
hy:	nop
	jp hy
load2	macro x,y
	ld a,x
	add a,y
	endm
	load2 1,2
skipz	macro
	local skip
	jr z,skip
	nop
skip:
	endm
	skipz
	skipz
