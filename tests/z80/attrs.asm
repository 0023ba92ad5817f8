; Paints a diagonal of coloured cells into attribute RAM and a red border, then ends.
        org $8000
start:  ld hl,$5800
        ld de,33            ; one row down, one column right
        ld b,8
        ld a,%00001000      ; paper 1 (blue), ink 0
paint:  ld (hl),a
        add hl,de
        add a,%00001000     ; next paper colour
        and %00111111
        djnz paint
        ld a,2
        out ($FE),a         ; border red
        ret
