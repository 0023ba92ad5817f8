; Table look-ups, as macros: they sit in the per-mino loops of the game and the printer, where a
; call and return would cost more than the look-up itself.

; hl_at TABLE: HL = TABLE + A (A unsigned), for a table anywhere in memory. Clobbers A.
hl_at   macro table
        add a,low(table)
        ld l,a
        adc a,high(table)
        sub l
        ld h,a
        endm

; add_hl_a: HL += A (A unsigned). Clobbers A.
add_hl_a macro
        add a,l
        ld l,a
        adc a,h
        sub l
        ld h,a
        endm

; minos_of: HL = orientation A's four (dx, dy) pairs in `offsets` (pieces.asm). Clobbers A.
minos_of macro
        add a,a
        add a,a
        add a,a
        hl_at offsets
        endm

; row_at: HL = the first cell of entry A of row_table (ram.asm; entry 0 is row -2). Clobbers A.
row_at  macro
        add a,a
        ld hl,(row_table)
        add_hl_a
        ld a,(hl)
        inc hl
        ld h,(hl)
        ld l,a
        endm
