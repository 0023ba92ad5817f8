; A game: its start, the frame, and the play states (nes-tetris.md sections 0-7 and 9-10).

; game_init: a new game with the level and type chosen in the menus: the first piece, one RNG
; step, the next piece; B-type garbage.
game_init:
        ld hl,playfield
        xor a
.clr:   ld (hl),a
        inc l
        jr nz,.clr
        ld hl,dead
        ld b,score+4-dead
.zero:  ld (hl),a
        inc hl
        djnz .zero
        ld hl,stats
        ld b,14
.zst:   ld (hl),a
        inc hl
        djnz .zst
        ld (lines+1),a
        ld (lines),a
        ld a,(game_type)
        or a
        jr z,.a2
        ld a,25h                ; B-type counts 25 lines down
        ld (lines),a
.a2:     xor a
        ld (start_game),a
        ld (ending),a
        ld a,-16                ; the curtain's wait, should the game end
        ld (curtain),a
        ld a,GMS_PLAY
        ld (gms),a
        ld a,PS_MOVE
        ld (play_state),a
        ld a,5
        ld (piece_x),a
        ld a,-96                ; the first piece hangs 96 frames (section 5)
        ld (drop_ar),a
        ld a,15
        ld (shift_ar),a
        ld a,(sel_level)
        ld (level),a
        call pick
        ld (piece),a
        call count_piece
        call rng_step
        call pick
        ld (next),a
        ld a,(game_type)
        or a
        call nz,garbage
        ld a,1
        ld (in_game),a
        ld (field_dirty),a
        ret

; garbage: the B-type rows 8-19, each cell from one RNG step, one hole per row, then the
; chosen height's rows (and one more cell) emptied.
garbage:
        ld d,80                 ; D = row * 10
.row:   call rng_step
        ld a,d
        add a,9
        ld e,a                  ; E = the cell, from column 9 down to 0
.cell:  call rng_step
        ld a,(rng+1)
        and 7
        ld c,a
        ld b,0
        ld hl,garbage_tiles
        add hl,bc
        ld a,(hl)
        ld l,e
        ld h,high(playfield)
        ld (hl),a
        ld a,e
        dec e
        cp d
        jr nz,.cell
        call rng_hole
        add a,d
        ld l,a
        ld h,high(playfield)
        ld (hl),0
        ld a,d
        add a,10
        ld d,a
        cp 200
        jr nz,.row
        ld a,(sel_height)
        ld e,a
        ld d,0
        ld hl,garbage_heights
        add hl,de
        ld a,(hl)
        ld b,a
        add a,a
        add a,a
        add a,b
        add a,a
        inc a
        ld b,a                  ; height * 10 + 1 cells
        ld hl,playfield
.empty: ld (hl),0
        inc l
        djnz .empty
        ret

; game_frame: one frame of a game.
game_frame:
        ld a,(dead)
        or a
        jp nz,game_over_frame
        ld a,(ending)
        or a
        jp nz,ending_frame
        ld hl,frame_counter
        inc (hl)
        call rng_step
        ld a,(paused)
        or a
        jr z,.running
        ld a,(pressed)
        cp BTN_START
        jp nz,set_prev
        xor a                   ; unpause: redraw the playfield, skip one frame
        ld (paused),a
        ld (render_rows),a
        ld a,1
        ld (field_dirty),a
        ld a,GMS_UNPAUSE
        ld (gms),a
        jr .logic
.running:
        ld a,(play_state)
        cp PS_ANIMATE
        jr nz,.render
        ld a,(frame_counter)    ; the line-clear animation steps on every 4th NMI
        and 3
        cp 1
        jr nz,.logic
        ld hl,lines_delay
        dec (hl)
        jr nz,.logic
        ld a,PS_UPDATE
        ld (play_state),a
        jr .logic
.render:
        ld hl,render_rows       ; the NMI copies 4 playfield rows per frame
        ld a,(hl)
        cp 5
        jr nc,.logic
        inc (hl)
.logic: call game_logic
        jp set_prev

; game_logic: the game mode states: the play state (fallTimer counts every frame), then the start
; button. Right+Left+Down held alone ends the frame before the start button (a bug of the game).
game_logic:
        ld a,(gms)
        cp GMS_PLAY
        jr nz,.start
        ld a,(pressed)          ; Select shows or hides the next piece
        and BTN_SELECT
        jr z,.nosel
        ld hl,hide_next
        ld a,(hl)
        xor 1
        ld (hl),a
.nosel:
        ld hl,fall
        inc (hl)
        ld hl,play_delay
        ld a,(hl)
        or a
        jr z,.op
        dec (hl)
        cp 2                    ; the first of the two: the NES's playState 6, B-type's goal
        call z,goal_check
        jr .after
.op:    call play_op
.after: ld a,GMS_START
        ld (gms),a
        ld a,(dead)
        ld hl,ending            ; (the goal reached, the NES's frame ends in its ending)
        or (hl)
        ret nz
        ld a,(pad)
        cp BTN_RIGHT|BTN_LEFT|BTN_DOWN
        ret z
.start: ld a,(gms)
        cp GMS_START
        jr nz,.done
        ld a,(pressed)
        and BTN_START
        jr z,.done
        ld a,1
        ld (paused),a
.done:  ld a,GMS_PLAY
        ld (gms),a
        ret

; game_over_frame: after the top-out (nes-tetris.md section 9) the curtain comes down: 64 frames'
; wait, then a row every fourth frame; then Start ends the game (game_end).
game_over_frame:
        ld hl,frame_counter
        inc (hl)
        call rng_step
        ld a,(curtain)
        cp 20
        jr z,.wait
        ld a,(frame_counter)
        and 3
        jp nz,set_prev
        ld hl,curtain
        inc (hl)
        jp set_prev
.wait:  ld a,(pressed)
        and BTN_START
        jp z,set_prev
; game_end: after the curtain or the B-type ending: a score that makes the game type's table is
; named there (highscores.asm), then the level menu, as on the NES.
game_end:
        xor a
        ld (in_game),a
        ld (ending),a
        ld (sel_on_height),a
        ld a,(sel_level)        ; the menu shows 0-9 (A+Start's ten more is asked for again)
        cp 10
        jr c,.lv2
        sub 10
        ld (sel_level),a
.lv2:   call hs_insert
        ld a,MENU_NAME
        jr nc,.named
        ld a,MENU_LEVEL
.named: ld de,4
        ld bc,0303h
        jp new_screen

play_op:
        ld a,(play_state)
        call dispatch
        dw move_piece, lock_piece, check_row, .none, update_stats, spawn_piece
.none:  ret

; dispatch: on to entry A of the table of addresses that follows the call; the entry returns to
; the caller's caller. Clobbers A, HL.
dispatch:
        pop hl
        add a,a
        add_hl_a
        ld a,(hl)
        inc hl
        ld h,(hl)
        ld l,a
        jp (hl)

move_piece:
        call shift
        call rotate
        jp drop

; load_piece: C = piece, D = x, E = y. Clobbers A.
load_piece:
        ld a,(piece)
        ld c,a
        ld a,(piece_x)
        ld d,a
        ld a,(piece_y)
        ld e,a
        ret

; valid: is orientation C with its pivot at column D, row E (signed) free? No carry: yes; carry:
; a mino is off the sides, below the floor, or on a block. Rows above the top are allowed and read
; the bytes they wrap to. Leaves the cells' addresses in `cells`. Keeps BC, DE. Clobbers AF, HL.
valid:  call cells_of
        ret c
        ld hl,(cells)
        ld a,(hl)
        ld hl,(cells+2)
        or (hl)
        ld hl,(cells+4)
        or (hl)
        ld hl,(cells+6)
        or (hl)
        ret z
        scf
        ret

; cells_of: the addresses of orientation C's minos with the pivot at (D, E) into `cells`, on the
; field that field_w and row_table describe: the game's 10 x 20 page, where rows -2 and -1 wrap
; to bytes 236-255 as the NES's 8-bit index does, or the printer's 21 x 42 (printer.asm). Carry
; if a mino is off the sides or below the floor. Keeps BC, DE. Clobbers AF, HL.
cells_of:
        push bc
        ld a,c
        minos_of
        ld bc,cells
.mino:  push hl
        ld a,(hl)
        add a,d
        ld hl,field_w
        cp (hl)
        jr nc,.out              ; negative columns are large bytes
        ld (tmp_x),a
        pop hl
        inc hl
        ld a,(hl)
        inc hl
        push hl
        add a,e
        add a,2                 ; the table starts at row -2
        ld hl,field_rows
        cp (hl)
        jr nc,.out              ; below the floor (or above the hidden rows)
        row_at
        ld a,(tmp_x)
        add_hl_a
        ld a,l
        ld (bc),a
        inc c
        ld a,h
        ld (bc),a
        inc c
        pop hl
        ld a,c
        cp low(cells+8)
        jr nz,.mino
        pop bc
        or a
        ret
.out:   pop hl
        pop bc
        scf
        ret

; try_move: the piece becomes orientation C at (D, E) if that is valid (no carry); else nothing
; changes (carry). Clobbers AF, HL.
try_move:
        call valid
        ret c
        ld a,c
        ld (piece),a
        ld a,d
        ld (piece_x),a
        ld a,e
        ld (piece_y),a
        ret

; shift: Left/Right with DAS (section 4; the counter counts down here: 15 on a press, a move when
; it reaches 0, then 5 between repeats; a blocked move leaves it at 0, charged).
shift:  ld a,(pad)
        bit 2,a                 ; Down held: no shifting
        ret nz
        and BTN_LEFT|BTN_RIGHT
        ret z
        ld a,(pressed)
        and BTN_LEFT|BTN_RIGHT
        ld a,15
        jr nz,.try2
        ld a,(shift_ar)
        or a
        jr z,.rep
        dec a
        ld (shift_ar),a
        ret
.rep:   ld a,5
.try2:   ld (shift_ar),a
        call load_piece
        ld a,(pad)
        and BTN_RIGHT           ; Right wins when both are held
        jr z,.left
        inc d
        jr .go
.left:  dec d
.go:    call try_move
        ret nc
        xor a
        ld (shift_ar),a
        ret

; rotate: A newly pressed turns clockwise, else B counter-clockwise; no wall kicks.
rotate: ld a,(pressed)
        ld hl,rot_cw
        bit 7,a
        jr nz,.go2
        ld hl,rot_ccw
        bit 6,a
        ret z
.go2:    ld a,(piece)
        ld e,a
        ld d,0
        add hl,de
        ld c,(hl)
        ld a,(piece_x)
        ld d,a
        ld a,(piece_y)
        ld e,a
        jr try_move

; drop: the first piece's hang, soft drop (Down alone: a row every 2 frames, counted in
; hold_down) and gravity (section 5). A drop that fails locks the piece.
drop:   ld a,(drop_ar)
        or a
        jp p,.normal
        ld a,(pressed)
        and BTN_DOWN
        jr nz,.endhang
        ld hl,drop_ar
        inc (hl)
        ret
.endhang:
        xor a
        ld (drop_ar),a
.normal:
        ld a,(drop_ar)
        or a
        jr nz,.pushing
        ld a,(pressed)
        and BTN_DOWN|BTN_UP
        cp BTN_DOWN
        jr nz,.gravity
        ld a,(pad)
        and BTN_LEFT|BTN_RIGHT
        jr nz,.gravity
        ld a,1
        ld (drop_ar),a
        jr .gravity
.pushing:
        ld a,(pad)
        and BTN_DOWN|BTN_UP|BTN_LEFT|BTN_RIGHT
        cp BTN_DOWN
        jr nz,.cancel
        ld hl,drop_ar
        inc (hl)
        ld a,(hl)
        cp 3
        jr c,.gravity
        ld (hl),1
        ld hl,hold_down
        inc (hl)
        jr fall_one
.cancel:
        xor a
        ld (drop_ar),a
        ld (hold_down),a
.gravity:
        ld a,(level)
        ld b,1
        cp 29
        jr nc,.speed
        ld e,a
        ld d,0
        ld hl,speed_table
        add hl,de
        ld b,(hl)
.speed: ld a,(fall)
        cp b
        ret c
; fall_one: the piece down a row, or, when it cannot go, locked (the printer calls it too).
fall_one:
        xor a
        ld (fall),a
        call load_piece
        inc e
        call try_move
        ret nc
        ld a,PS_LOCK
        ld (play_state),a
        jr redraw_from_piece

; redraw_from_piece: the playfield must be redrawn from the row 2 above the piece: 4 rows per
; frame, so render_rows goes back to min(render_rows * 4, row) / 4.
redraw_from_piece:
        ld a,(piece_y)
        sub 2
        jr nc,.row2
        xor a
.row2:   ld b,a
        ld a,(render_rows)
        add a,a
        add a,a
        cp b
        jr c,.min
        ld a,b
.min:   srl a
        srl a
        ld (render_rows),a
        ld a,1
        ld (field_dirty),a
        ret

; lock_piece: game over if the piece's own place is taken; else, once the playfield is redrawn,
; its minos go into the playfield.
lock_piece:
        call load_piece
        call valid
        jr nc,.fits
        ld a,1
        ld (dead),a
        ret
.fits:  ld a,(render_rows)
        cp 5
        ret c
        ld hl,(class_table)     ; the game's tile classes, or the printer's colours
        ld a,c
        add_hl_a
        ld a,(hl)
        ld hl,(cells)
        ld (hl),a
        ld hl,(cells+2)
        ld (hl),a
        ld hl,(cells+4)
        ld (hl),a
        ld hl,(cells+6)
        ld (hl),a
        xor a
        ld (row_offset),a
        call redraw_from_piece
        ld a,PS_CHECK
        ld (play_state),a
        ret

; check_row: one of the 4 rows from 2 above the piece per frame: a full one is removed (the rows
; above move down, the top row empties).
check_row:
        ld a,(render_rows)
        cp 5
        ret c
        ld a,(piece_y)
        sub 2
        jr nc,.top
        xor a
.top:   ld hl,row_offset
        add a,(hl)
        call row_addr
        push hl
        ld a,(field_w)
        ld b,a
.cell2:  ld a,(hl)
        or a
        jr z,.notfull
        inc hl
        djnz .cell2
        pop hl
        ld de,(field_top)
        or a
        sbc hl,de               ; the cells above the row = bytes to move down
        jr nz,.move2
        ld a,(printer_on)
        or a
        jr nz,.top0
        ld hl,246               ; row 0: the NES moves the whole page (bytes past 255 are lost)
.move2:  ld b,h
        ld c,l
        add hl,de
        dec hl                  ; the last byte to move
        ld a,(field_w)
        ld e,a
        ld d,0
        push hl
        add hl,de
        ex de,hl
        pop hl
        lddr
.top0:  ld hl,(field_top)
        ld a,(field_w)
        ld b,a
        xor a
.clear: ld (hl),a
        inc hl
        djnz .clear
        ld hl,cleared
        inc (hl)
        jr .next
.notfull:
        pop hl
.next:  ld hl,row_offset
        inc (hl)
        ld a,(hl)
        cp 4
        ret nz
        xor a
        ld (render_rows),a
        inc a
        ld (field_dirty),a
        ld a,5
        ld (lines_delay),a
        ld a,(cleared)
        or a
        ld a,PS_ANIMATE
        jr nz,.state
        ld a,PS_UPDATE
.state: ld (play_state),a
        ret

; row_addr: HL = the first cell of row A (from -2) of the field row_table describes. Clobbers A.
row_addr:
        add a,2
        row_at
        ret

; spawn_piece: once the playfield is redrawn, the next piece enters at the middle column (5 of
; the game's 10, 10 of the printer's 21), row 0.
spawn_piece:
        ld a,(render_rows)
        cp 5
        ret c
        xor a
        ld (fall),a
        ld (piece_y),a
        ld (drop_ar),a
        ld a,PS_MOVE
        ld (play_state),a
        ld a,(field_w)
        srl a
        ld (piece_x),a
        ld a,(next)
        ld (piece),a
        call count_piece
        call pick
        ld (next),a
        ret
