; The main program calls a routine that waits, frame after frame, for Q on the keyboard (bit 0 of
; the Q-T half-row), then prints K on the console and exits with status 5. The debugger's
; terminal UI runs `next`, `finish` and `call` over it frame by frame, and the keys typed
; meanwhile reach the program.
        org $8000
start:  ei
        call waitkey
back:   ld a,'K'
        out ($0F),a
        ld a,5
        out ($0D),a
waitkey:
        halt
        ld bc,$FBFE
        in a,(c)
        bit 0,a
        jr nz,waitkey
        ret
