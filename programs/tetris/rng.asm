; The random number generator and piece selection (nes-tetris.md section 3).

; rng_step: one step of the 16-bit LFSR: the new top bit is bit 9 XOR bit 1, the rest shifts
; right. Period 32767 from 8988h. Clobbers AF, HL.
rng_step:
        ld hl,(rng)
        ld a,h
        xor l
        rrca
        rrca                    ; carry = bit 1 of (high XOR low) = bit 9 XOR bit 1
        rr h
        rr l
        ld (rng),hl
        ret

; rng_steps: B steps. Clobbers AF, B, HL.
rng_steps:
        call rng_step
        djnz rng_steps
        ret

; rng_hole: steps until the high byte's low nibble is below 10 (the B-type hole column's
; rejection sampling); A = that nibble. Clobbers AF, HL.
rng_hole:
        call rng_step
        ld a,(rng+1)
        and 0Fh
        cp 10
        jr nc,rng_hole
        ret

; pick: the next piece, A = its spawn orientation. spawn_count + 1 plus the RNG's high byte,
; mod 8, indexes spawn_table; 7 or a repeat of the last pick re-rolls once: one more RNG step and
; (high byte mod 8 + last orientation ID) mod 7. Clobbers AF, DE, HL.
pick:
        ld hl,spawn_count
        ld a,(hl)
        inc a
        and 7
        ld (hl),a
        ld e,a
        ld a,(rng+1)
        add a,e
        and 7
        cp 7
        jr z,.reroll
        call .entry
        ld hl,spawn_id
        cp (hl)
        jr z,.reroll
        ld (hl),a
        ret
.reroll:
        call rng_step
        ld a,(rng+1)
        and 7
        ld hl,spawn_id
        add a,(hl)
.mod7:  sub 7
        jr nc,.mod7
        add a,7
        call .entry
        ld (spawn_id),a
        ret
.entry: ld e,a                  ; A = spawn_table[A]
        ld d,0
        ld hl,spawn_table
        add hl,de
        ld a,(hl)
        ret

; count_piece: adds 1 to the statistics counter (BCD) of orientation A. Keeps A. Clobbers F, DE, HL.
count_piece:
        push af
        ld e,a
        ld d,0
        ld hl,piece_type
        add hl,de
        ld a,(hl)
        add a,a
        ld e,a
        ld hl,stats
        add hl,de
        ld a,(hl)
        add a,1
        daa
        ld (hl),a
        inc hl
        ld a,(hl)
        adc a,0
        daa
        ld (hl),a
        pop af
        ret
