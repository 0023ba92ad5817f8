; Prints two lines on the debug console and exits with status 7.
        org $8000
start:  ld hl,text
loop:   ld a,(hl)
        or a
        jr z,done
        out ($0F),a
        inc hl
        jr loop
done:   ld a,7
        out ($0D),a
text:   db "Hello from the Z80",13
        db "second line",10,0
