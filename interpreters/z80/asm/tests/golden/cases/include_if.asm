; IF/ELSE/ENDIF, INCLUDE and INCBIN in the common syntax.
	org 8000h
	include "inc/defs.inc"
main:	ld hl,SCREEN
	ld de,ATTR
	if DEBUG
	ld a,1
	out (DEBUGPORT),a
	else
	nop
	endif
	if 1-DEBUG
	halt
	endif
	if 1
	if 0
	db 1
	else
	db 2
	endif
	endif
	ret
sprite:	incbin "inc/sprite.bin"
	db 0
