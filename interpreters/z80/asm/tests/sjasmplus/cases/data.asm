; sjasmplus data forms: DEFINE, STRUCT and instances, DUP with an index, macro parameters
; ending in `?`, DH, ALIGN with and without fill, DISP/ENT.
        DEFINE GREETING "hello"
        DEFINE COUNT 3
        org $9000
        STRUCT point
x       byte 1
y       byte 2
colour  word $0707
pad     block 2,$ee
        ENDS
        STRUCT sprite,1
pos     word
frame   byte
        ENDS
origin  point
corner  point 10,20,$1234
hero    sprite $4000,3
        ld a,(corner.y)
        ld hl,point
        ld de,hero.frame
        db GREETING,0
        DUP COUNT, idx
        db idx*2, $AA
        EDUP
        MACRO fill addr?, len?
        ld hl,addr?
        ld bc,len?
        ENDM
        fill $4000, 6912
        dh "0123456789abcdef", "ff 00"
        align 8,$55
        db 1
        align
        db 2
        align 16
code:   DISP $c000
moved:  ld hl,moved
        jp moved
        ENT
after:  ld hl,after
        IFDEF COUNT
        db "yes"
        ENDIF
        IFNDEF NOTDEFINED
        db "no"
        ENDIF
