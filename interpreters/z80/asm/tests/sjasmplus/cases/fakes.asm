; sjasmplus's fake instructions, each expanded to real ones.
        org $8000
        ld bc,de : ld bc,hl : ld bc,ix : ld bc,iy : ld bc,bc
        ld de,bc : ld de,hl : ld de,ix : ld de,iy
        ld hl,bc : ld hl,de : ld hl,ix : ld hl,iy
        ld ix,bc : ld ix,de : ld ix,hl : ld ix,iy : ld ix,ix
        ld iy,bc : ld iy,de : ld iy,hl : ld iy,ix
        ld bc,(hl) : ld de,(hl)
        ld (hl),bc : ld (hl),de
        ld bc,(ix+4) : ld de,(iy-3) : ld hl,(ix)
        ld (ix+2),bc : ld (iy+5),de : ld (ix-1),hl
        rl bc : rl de : rl hl : rr bc : rr de : rr hl
        sla bc : sla de : sla hl : sll bc : sli de : sll hl
        sra bc : sra de : sra hl : srl bc : srl de : srl hl
        add de,bc : add de,de : add de,hl : add de,sp
        adc de,bc : sbc de,hl : sub de,bc : sub hl,de
        ldi a,(hl) : ldi a,(de) : ldi b,(hl) : ldi (hl),c : ldi (de),a
        ldd a,(bc) : ldd (hl),7 : ldi a,(ix+3) : ldd (iy+1),e
        ldi bc,(hl) : ldi de,(ix+1) : ldi (hl),de
        ldi : ldd : ldir
        ex af,af'
        ld a,b
