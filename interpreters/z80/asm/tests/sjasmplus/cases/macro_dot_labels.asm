; Dot labels passed to a macro or used inside one: the expansion's own `.w` is private to it, a
; caller's `.loop` passed in (or named in the body) is the caller's, as sjasmplus resolves them.
 device zxspectrum48
 org 8000h
 macro wait n
.w  djnz .w
    ld a,n
 endm
 macro jmp target
    jp target
 endm
 macro setv target, v
    ld (target),a
    ld a,v
 endm
main:
    wait 5
    wait 6
.loop:
    jmp .loop
    jmp main.loop
    setv .var, 3
    jr .loop
.var db 0
other:
    jmp .x
.x  nop
