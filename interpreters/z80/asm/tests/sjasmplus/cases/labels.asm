; Labels in the sjasmplus dialect: MODULE prefixes, @global names, .local labels, temporary
; labels (1B/1F in jumps, 1_B/1_F anywhere) and `:` between statements.
        org $8000
main:   call game.init : call Shared
.loop:  ld a,(game.state) : or a : jr z,.loop
        jp 1F
        MODULE game
init:   ld hl,state
.clear: ld (hl),0 : ret
state:  db 0
@Shared:
        ld a,2 : ret
.inner: jr .inner
        MODULE nested
deep:   call game.init
        ENDMODULE
        call nested.deep
        ENDMODULE
1       ld b,3
2       djnz 2B
        ld hl,1_B
        ld de,2_F/2
        jr 1F
        nop
1       jr 1B
2       ld a,1B         ; binary 1 outside jumps
        ret
