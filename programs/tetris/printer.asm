; The printer mode (issue #18): plays a Tetris Printer Algorithm sequence (docs/tetris-printer.md)
; on a 21 x 42 field with the game's own routines: spawn_piece puts each piece at the top centre,
; rotate and shift turn and move it (the printer presses A or B, Left or Right, one press a
; frame), fall_one lets it fall (FALL_ROWS rows a frame), lock_piece and check_row lock it and
; clear full rows. Those routines work on any field through field_w, row_table, field_top and
; class_table (ram.asm); the printer only swaps in its own field and plays the buttons.
;
; The sequence (Sequence::to_bytes in interpreters/tpa): 9 bytes of colour (R, G, B of J, T, L),
; the number of drops (16 bits, little-endian), then two bytes a drop: the orientation id and the
; pivot column. `retro run tetris.asm --printer SEQ` puts it at printer_seq (D000h) and sets
; printer_go; the title screen's P key prints the built-in picture (printer/picture.bin).
;
; The screen: cells of 8 x 4 pixels, so the 42 rows fill 168 lines (21 character rows) and the 21
; columns 21 character columns; an attribute cell holds two field cells, one above the other, and
; shows both in their colours (the upper in ink, the lower in paper when they differ; both in
; paper when they are the same), so the Spectrum's colour clash never touches the picture.

PF_W            equ 21
PF_H            equ 42
PF_COL          equ 1           ; screen column of field column 0
PF_ROW          equ 1           ; screen row of field rows 0 and 1
FALL_ROWS       equ 4           ; rows a piece falls a frame once it is turned and shifted
PAIRS_PER_FRAME equ 2           ; field rows redrawn a frame after a line clear, in pairs
PRINTER_SEQ_MAX equ 0FE00h-0D000h ; the room for a sequence (the stack lives above it)

P_NEXT          equ 0           ; the next drop, once the screen has caught up
P_TURN          equ 1           ; one A or B press a frame
P_SHIFT         equ 2           ; one Left or Right press a frame
P_FALL          equ 3
P_LOCK          equ 4
P_CHECK         equ 5           ; the game's row check: one of the 4 rows around the piece a frame
P_DONE          equ 6           ; every drop played: the picture stays on the screen
P_JAM           equ 7           ; a drop the game refused (a blocked turn, shift or spawn)

; printer_start: print the sequence at HL.
printer_start:
        ld a,1
        ld (printer_on),a
        call p_colours
        ld de,9
        add hl,de
        ld e,(hl)
        inc hl
        ld d,(hl)
        inc hl
        ld (p_left),de
        ld (p_ptr),hl
        ld a,PF_W               ; the game's routines on the printer's field
        ld (field_w),a
        ld a,PF_H+2
        ld (field_rows),a
        ld hl,printer_rows
        ld (row_table),hl
        ld hl,pfield+2*PF_W
        ld (field_top),hl
        ld hl,printer_class
        ld (class_table),hl
        ld hl,pfield
        ld de,pfield+1
        ld bc,PF_W*(PF_H+3)-1
        ld (hl),0
        ldir
        xor a
        ld (dead),a
        ld (p_state),a
        ld (p_drawn),a
        ld (p_redraw_n),a
        ld (p_status),a
        ld a,19                 ; no piece yet
        ld (piece),a
        ld hl,p_shown
        jp p_no_minos

; printer_frame: one frame of printing.
printer_frame:
        ld a,5                  ; the game's own playfield drawing is not used: lock_piece and
        ld (render_rows),a      ; check_row never wait for it
        ld a,(p_state)
        call dispatch
        dw p_next, p_turn, p_shift, p_fall, p_lock, p_check, .idle, .idle
.idle:  ret

; p_next: the next drop: its piece spawns (the game's spawn_piece, from `next`), and the turns
; the short way to its orientation are counted (clockwise on a tie, as retro tpa's replay does).
p_next: ld a,(p_drawn)
        cp 2
        ret nz
        ld a,(p_redraw_n)
        or a
        ret nz
        ld hl,(p_left)
        ld a,h
        or l
        jr nz,.drop
        ld a,P_DONE
        ld (p_state),a
        ret
.drop:  dec hl
        ld (p_left),hl
        ld hl,(p_ptr)
        ld a,(hl)
        cp 19
        jp nc,p_jam
        ld (p_target),a
        inc hl
        ld a,(hl)
        ld (p_col),a
        inc hl
        ld (p_ptr),hl
        ld a,(p_target)         ; the piece spawns in its spawn orientation
        hl_at piece_type
        ld a,(hl)
        hl_at spawn_table
        ld a,(hl)
        ld (next),a
        call spawn_piece
        xor a
        ld (cleared),a
        ld a,(piece)            ; B = clockwise turns to the target, C = turns round the cycle
        ld d,a
        ld bc,0
.cw:    ld hl,p_target
        cp (hl)
        jr z,.found
        call turned
        inc b
        jr .cw
.found: ld d,a
.len:   call turned
        inc c
        cp d
        jr nz,.len
        ld a,c
        inc a
        ld l,a
        ld a,b
        add a,a
        cp l                    ; 2B < C + 1: clockwise
        ld a,b
        ld e,BTN_A
        jr c,.set
        ld a,c
        sub b
        ld e,BTN_B
.set:   ld (p_turns),a
        ld a,e
        ld (p_button),a
        ld a,P_TURN
        ld (p_state),a
        call load_piece         ; (a spawn that does not fit jams; the game would top out at the lock)
        call valid
        ret nc
        jp p_jam

; turned: A = orientation A turned clockwise (the game's rot_cw). Keeps BC, DE.
turned: hl_at rot_cw
        ld a,(hl)
        ret

; p_turn: one press of A or B (the game's rotate); then on to shifting in the same frame.
p_turn: ld a,(p_turns)
        or a
        jr z,.done3
        dec a
        ld (p_turns),a
        ld a,(piece)
        ld (p_was),a
        ld a,(p_button)
        ld (pressed),a
        call rotate
        xor a
        ld (pressed),a
        ld a,(piece)
        jp p_moved
.done3:  ld a,P_SHIFT
        ld (p_state),a
        ; fall through

; p_shift: one press of Left or Right a frame (the game's shift: a new press moves at once).
p_shift:
        ld a,(piece_x)
        ld hl,p_col
        cp (hl)
        jr z,.done4
        ld (p_was),a
        ld a,BTN_RIGHT
        jr c,.go3
        ld a,BTN_LEFT
.go3:    ld (pad),a
        ld (pressed),a
        call shift
        xor a
        ld (pad),a
        ld (pressed),a
        ld a,(piece_x)
        jp p_moved
.done4:  ld a,P_FALL
        ld (p_state),a
        ; fall through

; p_fall: FALL_ROWS rows a frame (the game's fall_one) until the piece rests.
p_fall: ld b,FALL_ROWS
.row6:   push bc
        call fall_one
        pop bc
        ld a,(play_state)
        cp PS_MOVE
        jr nz,.landed
        djnz .row6
        ret
.landed:
        ld a,P_LOCK
        ld (p_state),a
        ret

; p_lock: the game's lock_piece puts the minos into the field.
p_lock: call lock_piece
        ld a,(dead)
        or a
        jr nz,p_jam
        ld a,19                 ; the piece is part of the field now
        ld (piece),a
        ld a,P_CHECK
        ld (p_state),a
        ret

; p_check: the game's check_row, a row a frame; then the rows that moved are redrawn.
p_check:
        call check_row
        ld a,5
        ld (render_rows),a
        ld a,(play_state)
        cp PS_CHECK
        ret z
        ld a,(cleared)
        or a
        jr z,printer_dropped
        ld a,(piece_y)          ; every row down to the lowest one checked has moved
        inc a
        cp PF_H
        jr c,.in
        ld a,PF_H-1
.in:    srl a
        inc a
        ld (p_redraw_n),a
        xor a
        ld (p_redraw),a
; printer_dropped: a drop is played, its lock and line clears are in the field (tests stop here).
printer_dropped:
        ld a,P_NEXT
        ld (p_state),a
        ret

; p_moved: a press that left A as it was (p_was) did nothing: the game refused it.
p_moved:
        ld hl,p_was
        cp (hl)
        ret nz
p_jam:  ld a,P_JAM
        ld (p_state),a
        ret

; p_colours: the inks of J, T and L from the sequence's colours at HL (kept): each the nearest
; of the Spectrum's 7 colours (black is the empty field) by the sum of the differences in R, G
; and B, all three at one brightness (ink and paper share the BRIGHT bit): the brightness whose
; three distances add up to less, normal on a tie. The other pieces are white.
p_colours:
        push hl
        ld c,0D7h               ; the workbench's normal level
        call p_match
        call .take
        pop hl
        push hl
        push de
        ld c,0FFh               ; BRIGHT
        call p_match
        pop hl                  ; HL = normal's total, DE = bright's
        xor a
        sbc hl,de               ; normal - bright
        ld a,0
        jr c,.normal2
        jr z,.normal2
        call .take
        ld a,40h
.normal2:
        ld (p_bright),a
        ld a,7
        ld (p_inks+4),a
        ld (p_inks+5),a
        ld (p_inks+6),a
        ld (p_inks+7),a
        xor a
        ld (p_inks),a
        pop hl
        ret
.take:  push de                 ; the inks p_match chose are J's, T's and L's
        ld hl,p_try
        ld de,p_inks+1
        ld bc,3
        ldir
        pop de
        ret

; p_match: for the 3 colours at HL, the nearest ink 1-7 with component level C into p_try;
; DE = the distances' sum.
p_match:
        ld de,0
        ld ix,p_try
        ld b,3
.colour:
        push bc
        push de
        ld a,0FFh
        ld (p_best),a
        ld (p_best+1),a
        ld b,1
.ink:   push hl
        ld de,0
        ld a,b                  ; Spectrum colour bits: 1 blue, 2 red, 4 green
        and 2
        call .diff2              ; R
        inc hl
        ld a,b
        and 4
        call .diff2              ; G
        inc hl
        ld a,b
        and 1
        call .diff2              ; B
        ld hl,(p_best)
        or a
        sbc hl,de
        jr c,.worse
        jr z,.worse
        ld (p_best),de
        ld (ix+0),b
.worse: pop hl
        inc b
        ld a,b
        cp 8
        jr nz,.ink
        inc hl
        inc hl
        inc hl
        inc ix
        pop de
        push hl
        ld hl,(p_best)
        add hl,de
        ex de,hl
        pop hl
        pop bc
        djnz .colour
        ret
; .diff2: DE += |(HL) - (A ? C : 0)|.
.diff2:  or a
        jr z,.zero3
        ld a,c
.zero3:  push bc
        ld b,a
        ld a,(hl)
        sub b
        jr nc,.pos
        neg
.pos:   add a,e
        ld e,a
        jr nc,.nc
        inc d
.nc:    pop bc
        ret

; render_printer: the printer's screen. The first frame clears it, the next draws the frame;
; then the rows a line clear moved (PAIRS_PER_FRAME pairs a frame) and the falling piece.
render_printer:
        ld a,(p_drawn)
        or a
        jr nz,.drawn
        inc a
        ld (p_drawn),a
        jp clear_screen
.drawn: dec a
        jr nz,.live
        ld a,2
        ld (p_drawn),a
        jp p_draw_frame
.live:  ld a,(p_redraw_n)
        or a
        jr z,.piece2
        ld b,PAIRS_PER_FRAME
.pair:  push bc
        ld a,(p_redraw)
        call p_draw_pair_row
        ld hl,p_redraw
        inc (hl)
        ld hl,p_redraw_n
        dec (hl)
        pop bc
        jr z,.piece2
        djnz .pair
.piece2: call p_overlay
        ld hl,p_ovl
        ld de,p_shown
        ld b,8
.cmp3:   ld a,(de)
        cp (hl)
        jr nz,.moved3
        inc hl
        inc de
        djnz .cmp3
        jr .status
.moved3: ld hl,p_shown           ; the pairs under the old minos, then under the new ones
        call p_draw_minos
        ld hl,p_ovl
        call p_draw_minos
        ld hl,p_ovl
        ld de,p_shown
        ld bc,8
        ldir
.status:
        ld a,(p_state)
        cp P_DONE
        ret c
        ld hl,p_status
        cp (hl)
        ret z
        ld (hl),a
        ld hl,done_texts
        cp P_DONE
        jp z,draw_frame_texts
        ld hl,jam_texts
        jp draw_frame_texts

; p_draw_frame: the field's white frame and the title.
p_draw_frame:
        ld hl,ATTR+(PF_ROW-1)*32+PF_COL-1
        ld bc,PF_W*256+PF_H/2
        call draw_box
        ld hl,printer_texts
        jp draw_frame_texts

; p_overlay: the falling piece's minos as (row, column) pairs into p_ovl (FFh rows: none).
p_overlay:
        ld hl,p_ovl
        ld a,(piece)
        cp 19
        jr nc,p_no_minos
        ex de,hl
        minos_of
        ld b,4
.mino3:  ld a,(piece_x)
        add a,(hl)
        ld c,a
        inc hl
        ld a,(piece_y)
        add a,(hl)
        inc hl
        ld (de),a
        inc de
        ld a,c
        ld (de),a
        inc de
        djnz .mino3
        ret

; p_no_minos: the 8 bytes at HL say there are no minos (rows FFh).
p_no_minos:
        ld b,8
.none2:  ld (hl),0FFh
        inc hl
        djnz .none2
        ret

; p_draw_minos: the pairs of cells holding the 4 (row, column) at HL, with the falling piece.
p_draw_minos:
        ld b,4
.mino4:  ld a,(hl)
        inc hl
        cp PF_H
        jr nc,.skip3             ; hidden rows above the top (negative), or none
        push bc
        push hl
        and 0FEh
        ld (p_row),a
        ld a,(hl)
        ld (p_column),a
        call p_value
        push af
        ld hl,p_row
        inc (hl)
        call p_value
        ld c,a
        pop af
        ld b,a
        ld a,(p_row)
        srl a
        ld d,a
        ld a,(p_column)
        ld e,a
        call p_cell
        pop hl
        pop bc
.skip3:  inc hl
        djnz .mino4
        ret

; p_value: the colour at row p_row, column p_column: the falling piece's, else the field's.
p_value:
        ld hl,p_ovl
        ld b,4
.ovl:   ld a,(p_row)
        cp (hl)
        inc hl
        jr nz,.no
        ld a,(p_column)
        cp (hl)
        jr nz,.no
        ld a,(piece)
        hl_at printer_class
        ld a,(hl)
        ret
.no:    inc hl
        djnz .ovl
        ld a,(p_row)
        call row_addr
        ld a,(p_column)
        add_hl_a
        ld a,(hl)
        ret

; p_draw_pair_row: field rows 2A and 2A+1 from the field (no piece is falling while they are).
p_draw_pair_row:
        ld d,a
        add a,a
        push de
        call row_addr
        pop de
        ld e,0
.cell6:  ld b,(hl)
        push hl
        ld a,PF_W
        add_hl_a
        ld c,(hl)
        push de
        call p_cell
        pop de
        pop hl
        inc hl
        inc e
        ld a,e
        cp PF_W
        jr nz,.cell6
        ret

; p_cell: the screen's cell for pair row D, column E, with colour B above and C below (0 empty):
; two cells of one colour in paper (no pixels set); else the upper one in ink, the lower one in
; ink too when the upper is empty, else in paper. Clobbers everything but DE.
p_cell: ld a,b
        or a
        jr z,.noup
        call p_ink
        ld l,a                  ; L = the attribute
        ld h,0FFh               ; H = upper lines, then lower lines in A
        ld a,c
        or a
        jr z,.put2               ; (A = 0: the lower empty)
        cp b
        jr nz,.mixed
        ld a,l                  ; the same colour: both in paper, no pixels set (the terminal's
        add a,a                 ; attribute cells then show it as their colour)
        add a,a
        add a,a
        ld l,a
        xor a
        ld h,a
        jr .put2
.mixed: ld a,c
        call p_ink
        add a,a
        add a,a
        add a,a
        or l
        ld l,a
        xor a
        jr .put2
.noup:  ld h,a
        ld a,c
        or a
        ld l,a
        jr z,.put2
        call p_ink
        ld l,a
        ld a,0FFh
.put2:   ld b,h
        ld c,a
        ld a,(p_bright)
        or l
        push af                 ; the attribute
        ld a,d
        add a,PF_ROW
        ld h,a
        ld a,e
        add a,PF_COL
        ld l,a
        bitmap_addr h,l
        ld (hl),b
        inc h
        ld (hl),b
        inc h
        ld (hl),b
        inc h
        ld (hl),b
        inc h
        ld (hl),c
        inc h
        ld (hl),c
        inc h
        ld (hl),c
        inc h
        ld (hl),c
        ld a,h                  ; the attribute has the pixels' low byte and 58h | row >> 3
        rrca                    ; (H = 40h | row & 18h | 7 now)
        rrca
        rrca
        and 3
        or high(ATTR)
        ld h,a
        pop af
        ld (hl),a
        ret

; p_ink: A = the ink of field colour A (1-7). Keeps BC, DE, HL.
p_ink:  push hl
        hl_at p_inks
        ld a,(hl)
        pop hl
        ret

; What a locked mino writes into the printer's field, per orientation: the colours of retro tpa's
; replay (J 1, T 2, L 3: the picture's colours; I 4, O 5, S 6, Z 7).
printer_class: db 2,2,2,2, 1,1,1,1, 7,7, 5, 6,6, 3,3,3,3, 4,4

; The start of each printer row from row -2 (the hidden rows above the top), and one empty row
; below the floor for check_row's look past it.
printer_rows:
pr_row  defl 0
        rept PF_H+3
        dw pfield+pr_row*PF_W
pr_row  defl pr_row+1
        endm

printer_texts:
        db 2,24,TITLE_ATTR,"PRINTER",0
        db 0FFh
done_texts:
        db 4,25,LABEL_ATTR,"DONE",0
        db 0FFh
jam_texts:
        db 4,24,TITLE_ATTR,"JAMMED",0
        db 0FFh

; The built-in picture (P on the title screen): our own sprite printer/picture.txt, converted by
; `retro tpa printer/picture.txt -o printer/picture.bin`.
printer_picture:
        incbin "printer/picture.bin"
