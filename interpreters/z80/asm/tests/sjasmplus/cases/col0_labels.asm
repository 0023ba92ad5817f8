; In sjasmplus a word in column 0 is always a label, also `end`, `nop` or `org`: `end` at the start
; of a line does not end the source (issue 29: six beeper engines lost everything after it).
        org 8000h
start   ld a,1
end
        nop
        jr end
nop     ld b,2
x = 5
x = x + 1
        db x
abs:    nop
lab!    nop
lab#2   nop
        ld a,abs(-3)
        jp lab!
        END
        db 0FFh
