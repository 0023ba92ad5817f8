; Waits for Q (bit 0 of the Q-T half-row, selected by A10 = 0: B = FBh), then for P
; (bit 0 of the P-Y half-row, B = DFh), printing what it saw on the console; exits with
; the number of frames it waited.
        org $8000
start:  ei
        ld d,0              ; frames waited
waitq:  halt
        inc d
        ld bc,$FBFE
        in a,(c)
        bit 0,a
        jr nz,waitq
        ld a,'Q'
        out ($0F),a
waitp:  halt
        inc d
        ld bc,$DFFE
        in a,(c)
        bit 0,a
        jr nz,waitp
        ld a,'P'
        out ($0F),a
        ld a,13
        out ($0F),a
        ld a,d
        out ($0D),a
