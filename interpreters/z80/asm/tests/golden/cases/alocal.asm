; pasmo's --alocal: names starting with `_` are local to the previous label without one (their
; ambit also ends at PROC, LOCAL, MACRO, ENDP and ENDM). Nine of 25 beeper engines need it.
        org 8000h
fill:   ld b,4
_loop:  ld (hl),a
        inc hl
        djnz _loop
        jr _done
_done:  ret
clear:  ld b,8
_loop:  ld (hl),0
        inc hl
        djnz _loop
        ret
