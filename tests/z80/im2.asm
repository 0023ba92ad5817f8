; An IM 2 interrupt routine counts frames through its own vector table; the main loop
; halts until 50 frames have passed, prints the count and exits with status 50.
        org $8000
start:  di
        ld hl,table
        ld (hl),handler & $FF   ; fill the 257-byte table with the handler's low byte...
        ld de,table+1
        ld bc,256
        ldir
        ld a,table >> 8
        ld i,a
        im 2
        ei
wait:   halt
        ld a,(frames)
        cp 50
        jr c,wait
        di
        ld a,(frames)
        out ($0D),a
frames: db 0
        org $9191               ; ... so the vector is 9191h: handler's address
handler: push af
        ld a,(frames)
        inc a
        ld (frames),a
        pop af
        ei
        reti
        org $9000
table:  ds 257
