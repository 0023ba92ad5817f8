; Counts frames forever: each frame interrupt (IM 1) ends a HALT and the loop adds one to count.
; The debugger's terminal UI runs it frame by frame until a key stops it.
        org $8000
start:  ei
loop:   halt
        ld hl,(count)
        inc hl
        ld (count),hl
        jr loop
count:  dw 0
