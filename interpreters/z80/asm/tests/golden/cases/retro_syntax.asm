; retro's own extensions, checked against the opcode tables by hand: local labels scoped to the
; previous global label, ALIGN, 0b binary, C-style escapes, `!=`, `&&`, `||`, labels without colon.
	org 8000h
first:	ld b,4
.loop:	djnz .loop
	jr .done
.done:	ret
second:	ld b,2
.loop:	dec b
	jr nz,.loop
	jp first.loop
	align 8
aligned	db 0b101, "a\tb\n\x41\0"
	align 4, 0FFh
	db 3 != 4, 1 && 0, 1 || 0, !0
	dw aligned
	db 6 ^ 3, 5 == 5
