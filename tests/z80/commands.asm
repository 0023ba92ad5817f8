; The debugger's commands one by one (tests/z80/commands.cmds): an RST routine that `next`
; runs as one step, a counter read and then written (awatch), nested calls to advance and
; run `until` through, and data to show by label (x).
        org $8000
start:  ld sp,$F000
        ld hl,count
onrst:  rst $08                 ; count becomes 1
        ld a,(count)            ; read
        add a,10
        ld (count),a            ; write: 11
        call outer
done:   ld a,(count)
        out ($0D),a             ; exit with status 11
outer:  call inner
        ret
inner:  ld b,2
        ret
count:  db 0
msg:    db "Z80!"
        org $0008
rst8:   inc (hl)                ; RST 08h: one more
        ret
