; The Connect-4 course's template style: a ZX Spectrum 48K program that sjasmplus turns into a
; snapshot (DEVICE ZXSPECTRUM48 ... SAVESNA). Draws a 7x6 board of attribute cells and waits.
        DEVICE ZXSPECTRUM48
        org $8000

XSIZE   equ 7
YSIZE   equ 6
ATTRS   equ $5800

start:
        di
        ld sp,0
        ld a,1
        out ($fe),a             ; blue border
        ld hl,ATTRS+2*32+12
        ld c,YSIZE
row:    ld b,XSIZE
        push hl
cell:   ld (hl),$08             ; blue paper
        inc hl
        djnz cell
        pop hl
        ld de,32
        add hl,de
        dec c
        jr nz,row
        ld hl,message
        call print
        ; ---- student code goes here ----
forever:
        jr forever

print:  ld a,(hl)
        or a
        ret z
        inc hl
        jr print

message:
        db "CONNECT 4",0

        SAVESNA "course.sna", start
        SAVEBIN "course.bin", start, $-start
