        org $8000
main:   ld sp,$F000
        ld hl,$9000
        call inc2
        call inc2
        ld a,(hl)
        out ($0D),a
inc2:   inc (hl)
        call inc1
        ret
inc1:   inc (hl)
        ret
