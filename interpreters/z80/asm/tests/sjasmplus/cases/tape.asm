; Tape and file outputs: EMPTYTAP, SAVETAP CODE and HEADLESS, SAVEBIN, OUTPUT/OUTEND.
        DEVICE ZXSPECTRUM48
        org $6000
loader: ld hl,$4000
        ld de,$4001
        ld bc,6143
        ld (hl),l
        ldir
        ret
        OUTPUT "part.bin"
table:  db 1,2,4,8,16,32,64,128
        OUTEND
tail:   dw loader, table
        EMPTYTAP "game.tap"
        SAVETAP "game.tap", CODE, "game", loader, $-loader
        SAVETAP "game.tap", CODE, "table", table, 8, $7000
        SAVETAP "game.tap", HEADLESS, tail, 4
        SAVETAP "game.tap", HEADLESS, table, 2, $55
        SAVEBIN "screen.bin", $5800, 32
