; Black on white in the top-left cell, whose first two pixel rows are all ink: the attribute cell
; view shows it as `#` (no glyph of the font), the pixel view as upper half-blocks. Then it waits.
        org $8000
        ld a,$38            ; paper white, ink black
        ld ($5800),a
        ld a,$FF
        ld ($4000),a        ; pixel row 0
        ld ($4100),a        ; pixel row 1
        ei
spin:   halt
        jr spin
