; pasmo's --equ NAME=VALUE defines NAME as an EQU before the first line (FFFFh without a value).
        org 100h
        ld a,SPEED
        ld hl,FLAGS
        if SPEED > 3
        db 1
        endif
