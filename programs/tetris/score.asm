; Lines, level and score after a lock (nes-tetris.md section 7; the oracle, meta_nestris, for the
; soft-drop points' low digit).

; update_stats: lines (A-type: up, with the level-up rule and its BCD reading; B-type: down to 0),
; the soft-drop points, the line points times (level + 1), then two frames (playStates 6 and 7)
; before the spawn.
update_stats:
        ld a,(cleared)
        or a
        jr z,.points
        ld b,a
        ld a,(game_type)
        or a
        jr nz,.btype
.line:  ld a,(lines)
        add a,1
        daa
        ld (lines),a
        ld c,a
        ld a,(lines+1)
        adc a,0
        daa
        ld (lines+1),a
        ld a,c
        and 0Fh
        jr nz,.nolevel
        ld a,(lines+1)          ; lines / 10 as BCD, read as a binary number (the BCD bug)
        add a,a
        add a,a
        add a,a
        add a,a
        ld e,a
        ld a,c
        rrca
        rrca
        rrca
        rrca
        and 0Fh
        or e
        ld e,a
        ld a,(level)
        cp e
        jr nc,.nolevel
        inc a
        ld (level),a
.nolevel:
        djnz .line
        jr .points
.btype: ld a,(lines)
        sub b
        daa
        ld (lines),a
        ld a,(lines+1)
        sbc a,0
        daa
        ld (lines+1),a
        jr nc,.points
        xor a
        ld (lines),a
        ld (lines+1),a
.points:
        call add_hold_down
        ld a,(cleared)
        or a
        jr z,.done2
        ld e,a
        add a,a
        add a,e
        ld e,a
        ld d,0
        ld hl,points
        add hl,de
        ex de,hl                ; DE = the points
        ; The NES adds them level + 1 times. The sum is the same added once, then the level's
        ; units, tens and hundreds times the points, times 10 and times 100: at most 21 adds
        ; instead of up to 256. At 200 T-states an add (17,700 at level 87), the redraw a
        ; level-up brings made a tetris from level 87 overrun the frame's 58,333 T-states: a
        ; lag frame the NES does not have, and the game fell a frame behind the oracle.
        call add_score
        ld a,(level)
        ld c,0
.lvhund: cp 100
        jr c,.lvtens0
        sub 100
        inc c
        jr .lvhund
.lvtens0: ld b,0
.lvtens: cp 10
        jr c,.lvunits
        sub 10
        inc b
        jr .lvtens
.lvunits: push bc                 ; B = tens, C = hundreds
        ld b,a
        call add_times
        pop bc
        ld hl,points10-points
        add hl,de
        ex de,hl
        call add_times
        ld b,c
        ld hl,points100-points10
        add hl,de
        ex de,hl
        call add_times
.done2:  call cap_score
        ld a,1
        ld (field_dirty),a      ; the level's colours may have changed
        xor a
        ld (cleared),a
        ld a,PS_SPAWN
        ld (play_state),a
        ld a,2
        ld (play_delay),a
        ret

; add_hold_down: the soft-drop points, hold_down - 1 when it is 2 or more, added to the score's
; low byte in binary with the game's one-nibble fix-up: a low nibble above 9 gains 6; a byte of
; A0h or more keeps only its high nibble, gains 60h and carries 100 points (so the low digit is
; lost: the NES's `and #$F0` before `adc #$60`). Clobbers AF, B, HL.
add_hold_down:
        ld hl,hold_down
        ld a,(hl)
        ld (hl),0
        cp 2
        ret c
        dec a
        ld hl,score
        add a,(hl)
        ld b,a
        and 0Fh
        cp 0Ah
        ld a,b
        jr c,.high
        add a,6
.high:  cp 0A0h
        jr c,.store
        and 0F0h
        add a,60h
        ld (hl),a
        inc hl
        ld a,(hl)
        add a,1
        jr carry_up
.store: ld (hl),a
        ret

; add_times: adds the 3 BCD bytes at DE to the score B times (none when B is 0). Keeps DE.
add_times:
        inc b
        dec b
        ret z
.add:   call add_score
        djnz .add
        ret

; add_score: adds the 3 BCD bytes at DE to the score. Keeps B, DE. Clobbers AF, HL.
add_score:
        ld hl,score
        ld a,(de)
        add a,(hl)
        daa
        ld (hl),a
        inc hl
        inc de
        ld a,(de)
        adc a,(hl)
        daa
        ld (hl),a
        inc hl
        inc de
        ld a,(de)
        adc a,(hl)
        daa
        ld (hl),a
        inc hl
        dec de
        dec de
        ld a,(hl)
        adc a,0
        daa
        ld (hl),a
        ret

; carry_up: A = the byte at HL plus a carry; stores it decimal-adjusted and carries on through
; score+3. Clobbers AF, HL.
carry_up:
        daa
        ld (hl),a
        ret nc
        inc hl
        ld a,l
        cp low(score+4)
        ret z
        ld a,(hl)
        add a,1
        jr carry_up

; cap_score: past 999,999 the score stays at 999,999 (unless `uncapped`).
cap_score:
        ld a,(uncapped)
        or a
        ret nz
        ld a,(score+3)
        or a
        ret z
        xor a
        ld (score+3),a
        ld a,99h
        ld (score),a
        ld (score+1),a
        ld (score+2),a
        ret
