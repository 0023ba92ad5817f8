; An sjasmplus source (its DEVICE line selects the dialect): prints S, exits with status 17.
        DEVICE ZXSPECTRUM48
        org 8000h
start:  ld de,0F00h + 'S'
        ld bc,de                ; a fake instruction: only sjasmplus has it
        ld a,c : out (0Fh),a
        ld a,b
        dup 2
        inc a
        edup
        out (0Dh),a
