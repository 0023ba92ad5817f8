; The screen, laid out as the NES's in 32 x 24 cells: the playfield in attribute cells (10 x 20 at
; columns 11-20, rows 2-21, framed), LINES above it, STATISTICS with the small pieces and their
; counts on the left, TOP, SCORE, NEXT and LEVEL on the right; the menus as text in the workbench's
; 8x8 font (font.asm). Colours per level as the NES's colorTable, mapped to the Spectrum's 15
; colours (docs/tetris.md).

FIELD_COL       equ 11
FIELD_ROW       equ 2
ATTR            equ 5800h
FRAME_ATTR      equ 38h+40h         ; bright white paper: the frame
EMPTY_ATTR      equ 0               ; black
TEXT_ATTR       equ 07h             ; white on black
LABEL_ATTR      equ 47h             ; bright white on black
TITLE_ATTR      equ 42h             ; bright red on black
SEL_ATTR        equ 0F0h            ; the menu cursor: black on bright yellow, flashing
HELD_ATTR       equ 70h             ; a choice the cursor is not on: black on bright yellow
CURTAIN_ATTR    equ 38h             ; the game-over curtain: white
GAME_SCREEN     equ 0FDh            ; shown_mode: the game's screen drawn, the game not yet shown
GAME_SHOWN      equ 0FEh            ; shown_mode: the game is on
NEXT_X          equ 14              ; the next piece's pivot, in playfield cells (screen column 25,
NEXT_Y          equ 8               ; row 10)
STATS_ROW       equ 4               ; the statistics: piece i at row 4 + 2i
PAUSE_ROW       equ 11
PAUSE_COL       equ 13

; bitmap_addr HI,LO: HI, LO = the first pixel line of the character cell at row HI (0-23), column
; LO: 40h | row & 18h, (row & 7) << 5 | column. A macro: put_char draws 60 characters a frame.
; Clobbers A.
bitmap_addr macro hi,lo
        ld a,hi
        rrca
        rrca
        rrca
        and 0E0h
        or lo
        ld lo,a
        ld a,hi
        and 18h
        or 40h
        ld hi,a
        endm

; render: the screen the game is on. A new screen takes two frames (the NES's menus wait out their
; screen uploads meanwhile: `delay`): the first clears it, the second draws it. Then only what
; changed is drawn: the menu cursors; in a game the numbers, the playfield (when it changed) and
; the piece (when it moved).
render: ld a,(printer_on)
        or a
        jp nz,render_printer
        ld a,(in_game)
        or a
        jp nz,render_game
        ld a,(start_game)
        or a
        ld a,GAME_SCREEN        ; the level menu chose: the game's screen, drawn while it starts
        jr nz,.want
        ld a,(menu_mode)
.want:  ld hl,shown_mode
        cp (hl)
        jr z,.same
        ld hl,drawing_mode
        cp (hl)
        jr z,.draw
        ld (hl),a               ; the first frame clears and finds the screen's texts
        ld hl,game_texts
        cp GAME_SCREEN
        jr z,.texts
        add a,a
        ld e,a
        ld d,0
        ld hl,screen_texts
        add hl,de
        ld a,(hl)
        inc hl
        ld h,(hl)
        ld l,a
.texts: ld (text_ptr),hl
        jp clear_screen
.draw:  ld hl,(text_ptr)        ; then the texts, a frame's worth at a time
        call draw_frame_texts
        ld (text_ptr),hl
        ret nz                  ; more next frame
        ld a,(drawing_mode)
        ld (shown_mode),a
        ld a,0FFh
        ld (shown_cursor),a
        ld (drawing_mode),a
        xor a
        ld (extra_step),a
        ld a,(shown_mode)
        cp GAME_SCREEN
        jp z,draw_game_screen
        cp MENU_NAME
        jr z,.nametype
        cp MENU_LEVEL
        ret nz
        ld hl,level_a_texts     ; the level menu names the game type; B-type has its heights
        ld a,(game_type)
        or a
        jr z,.lvl
        ld hl,level_b_texts
.lvl:   jp draw_frame_texts
.nametype: ld a,LABEL_ATTR         ; the name entry names the game type
        ld (text_attr),a
        ld de,090Dh
        call type_text
        jp print
.same:  cp GAME_SCREEN
        jr nz,.menu3
        ld hl,numbers_due
        ld a,(hl)
        or a
        ret z
        ld (hl),0
        jp draw_start_numbers
.menu3: call menu_extras
        ld a,(shown_mode)
        cp MENU_GAMETYPE
        jp z,game_type_cursor
        cp MENU_LEVEL
        jp z,level_cursor
        cp MENU_NAME
        jp z,name_cursor
        ret

; clear_screen: bitmap and attributes all zero (black), and a black border: 38,000 T-states.
clear_screen:
        xor a
        out (0FEh),a
        ld hl,5B00h
        ld b,(5B00h-4000h)/32
        ld e,a
; fill: the B blocks of 32 bytes below HL set to E, by PUSH. Interrupts are off while SP points
; into the screen (the frame interrupt comes only after the frame's HALT, so none is lost).
fill:   di
        ld (fill_sp),sp
        ld sp,hl
        ld d,e
.blk:   push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        push de
        djnz .blk
        ld sp,(fill_sp)
        ei
        ret

; game_type_cursor: the chosen game type and music flash, as the NES's arrows do.
game_type_cursor:
        ld a,(music_type)
        add a,a
        ld hl,game_type
        or (hl)
        ld hl,shown_cursor
        cp (hl)
        ret z
        ld (hl),a
        ld hl,game_type_options
        call paint_options
        ld a,SEL_ATTR
        ld (sel_attr),a
        ld a,(game_type)
        ld hl,game_type_options
        call paint_option
        ld a,(music_type)
        add a,2
        ld hl,game_type_options
        jp paint_option

; level_cursor: the chosen level (and B-type height) highlighted; the one the cursor is on flashes.
level_cursor:
        ld a,(sel_height)
        add a,a
        add a,a
        add a,a
        add a,a
        ld hl,sel_level
        or (hl)
        ld hl,sel_on_height
        bit 0,(hl)
        jr z,.sig
        or 80h
.sig:   ld hl,shown_cursor
        cp (hl)
        ret z
        ld (hl),a
        ld hl,level_options
        call paint_options
        ld a,(sel_on_height)
        or a
        ld a,SEL_ATTR
        jr z,.lv3
        ld a,HELD_ATTR
.lv3:    ld (sel_attr),a
        ld a,(sel_level)
        ld hl,level_options
        call paint_option
        ld a,(game_type)
        or a
        ret z
        ld hl,height_options
        call paint_options
        ld a,(sel_on_height)
        or a
        ld a,SEL_ATTR
        jr nz,.ht
        ld a,HELD_ATTR
.ht:    ld (sel_attr),a
        ld a,(sel_height)
        ld hl,height_options
        jp paint_option

; row_col: D, E = the row and column at HL; HL moves on past them.
row_col:
        ld d,(hl)
        inc hl
        ld e,(hl)
        inc hl
        ret

; paint_options: every option of the list at HL (row, column, width; FFh ends) in TEXT_ATTR.
paint_options:
        ld a,(hl)
        cp 0FFh
        ret z
        call row_col
        ld b,(hl)
        inc hl
        ld c,TEXT_ATTR
        call paint
        jr paint_options

; paint_option: option A of the list at HL in sel_attr.
paint_option:
        ld e,a
        add a,a
        add a,e
        ld e,a
        ld d,0
        add hl,de
        ld d,(hl)
        inc hl
        ld e,(hl)
        inc hl
        ld b,(hl)
        ld a,(sel_attr)
        ld c,a
; paint: B cells from row D, column E get attribute C. Keeps DE, HL.
paint:  push hl
        call attr_addr
.cell3:  ld (hl),c
        inc hl
        djnz .cell3
        pop hl
        ret

; attr_addr: HL = the attribute of row D, column E. Keeps BC, DE.
attr_addr:
        ld a,d
        rrca
        rrca
        rrca
        ld l,a
        and 3
        or high(ATTR)
        ld h,a
        ld a,l
        and 0E0h
        or e
        ld l,a
        ret

; put_char: character A (' ' to 'Z') at row D, column E in text_attr; E moves on. Keeps BC, HL.
put_char:
        push hl
        push bc
        push de
        sub ' '
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        ld bc,font
        add hl,bc               ; HL = the glyph
        bitmap_addr d,e
        ld b,8
.row3:   ld a,(hl)
        ld (de),a
        inc hl
        inc d
        djnz .row3
        pop de
        call attr_addr
        ld a,(text_attr)
        ld (hl),a
        inc e
        pop bc
        pop hl
        ret

; print: the 0-terminated text at HL from row D, column E. HL ends after the 0.
print:  ld a,(hl)
        inc hl
        or a
        ret z
        call put_char
        jr print

; draw_texts_all: draw_texts to the list's end.
draw_texts_all:
        ld a,255
        ld (text_budget),a
        jr draw_texts

; draw_frame_texts: draw_texts with a frame's budget: 60 characters, some 30,000 T-states.
draw_frame_texts:
        ld a,60
        ld (text_budget),a
; draw_texts: the list at HL of (row, column, attribute, text, 0), ended by FFh, until its end (Z)
; or until text_budget characters are spent (NZ, HL at the next text).
draw_texts:
        ld a,(hl)
        cp 0FFh
        ret z
        ld a,(text_budget)
        or a
        jr z,.out2
        ld d,(hl)
        inc hl
        ld e,(hl)
        inc hl
        ld a,(hl)
        ld (text_attr),a
        inc hl
        ld a,e
        ld (text_col),a
        call print
        ld a,(text_col)
        sub e                   ; minus the text's length
        ld e,a
        ld a,(text_budget)
        add a,e
        jr c,.left2
        xor a                   ; spent
.left2:  ld (text_budget),a
        jr draw_texts
.out2:   inc a                   ; NZ
        ret

; put_score: the six digits of the BCD score whose top byte is at HL (the lower bytes before it)
; at row D, column E. HL ends at its low byte.
put_score:
        ld a,(hl)
        call put_bcd
        dec hl
        ld a,(hl)
        call put_bcd
        dec hl
        ld a,(hl)
; put_bcd: the two digits of BCD byte A; put_digit: digit A (0-9).
put_bcd:
        push af
        rrca
        rrca
        rrca
        rrca
        and 0Fh
        call put_digit
        pop af
        and 0Fh
put_digit:
        add a,'0'
        jp put_char

; draw_game_screen: the frame, the type, the statistics' pieces and TOP (the labels were the
; screen's texts); the numbers follow next frame (draw_start_numbers).
draw_game_screen:
        call draw_frame
        call type_text
        ld de,1
        ld a,LABEL_ATTR
        ld (text_attr),a
        call print
        ld a,TEXT_ATTR          ; TOP's score: row 2, column 23: the game type's best
        ld (text_attr),a
        call hs_base
        ld de,8
        add hl,de
        ld de,0217h
        call put_score
        ld hl,mini_pieces       ; the small pieces' half-blocks
        ld d,STATS_ROW
.mini:  ld e,1
.mini2: ld a,(hl)
        inc hl
        call put_block
        inc e
        ld a,e
        cp 5
        jr c,.mini2
        inc d
        inc d
        ld a,d
        cp STATS_ROW+14
        jr c,.mini
        ld a,1                  ; the numbers next frame
        ld (numbers_due),a
        ret

; type_text: HL = the game type's name.
type_text:
        ld hl,a_type_text
        ld a,(game_type)
        or a
        ret z
        ld hl,b_type_text
        ret

; put_block: half-block code A (0 empty, 1 upper half, 2 lower half, 3 whole: paper; 4-9 the
; quadrant corners and half sides of a box: block_glyphs) into the
; bitmap cell at row D, column E of a cleared screen (so an empty or a whole cell, which have no
; pixels, costs nothing: a game's screen is drawn in the frame its text ends). Keeps BC, DE, HL.
put_block:
        or a
        ret z
        cp 3
        ret z
        push hl
        add a,a
        add a,a
        add a,a
        hl_at block_glyphs
        call put_pixels
        pop hl
        ret

; block_attr: A = the attribute of half-block code A in ink C: the ink on black; a whole cell
; is the ink's colour as paper too; an empty one black. Keeps BC, DE, HL.
block_attr:
        or a
        ret z
        cp 3
        ld a,c
        ret nz
        and 7
        add a,a
        add a,a
        add a,a
        or c
        ret

; draw_picture: the half-block picture at HL: (row, column, ink, count, count codes) entries
; ended by FFh. Clobbers everything.
draw_picture:
        ld a,(hl)
        cp 0FFh
        ret z
        call row_col
        ld c,(hl)
        inc hl
        ld b,(hl)
        inc hl
.pcell: ld a,(hl)
        call put_block
        push hl
        ld a,(hl)
        push af
        call attr_addr
        pop af
        call block_attr
        ld (hl),a
        pop hl
        inc hl
        inc e
        djnz .pcell
        jr draw_picture

; The half-blocks' pixels (put_block; the empty cell's is also the ending's eraser).
block_glyphs:
        db 0,0,0,0,0,0,0,0
        db 0FFh,0FFh,0FFh,0FFh,0,0,0,0                  ; 1 upper half
        db 0,0,0,0,0FFh,0FFh,0FFh,0FFh                  ; 2 lower half
        db 0,0,0,0,0,0,0,0                              ; 3 whole (paper)
        db 0,0,0,0,0Fh,0Fh,0Fh,0Fh                      ; 4 lower right quarter
        db 0,0,0,0,0F0h,0F0h,0F0h,0F0h                  ; 5 lower left quarter
        db 0Fh,0Fh,0Fh,0Fh,0Fh,0Fh,0Fh,0Fh              ; 6 right half
        db 0F0h,0F0h,0F0h,0F0h,0F0h,0F0h,0F0h,0F0h      ; 7 left half
        db 0Fh,0Fh,0Fh,0Fh,0,0,0,0                      ; 8 upper right quarter
        db 0F0h,0F0h,0F0h,0F0h,0,0,0,0                  ; 9 upper left quarter

; put_pixels: the 8 bytes at HL into the bitmap cell at row D, column E; HL moves on. Keeps BC, DE.
put_pixels:
        push bc
        push de
        bitmap_addr d,e
        ld b,8
.row4:   ld a,(hl)
        ld (de),a
        inc hl
        inc d
        djnz .row4
        pop de
        pop bc
        ret

; draw_numbers: LINES, SCORE, LEVEL and the statistics' counts, each when it changed.
draw_numbers:
        ld a,TEXT_ATTR
        ld (text_attr),a
        ld hl,lines
        ld de,shown_lines
        ld b,2
        call changed
        call nz,draw_lines
        ld hl,score
        ld de,shown_score
        ld b,3
        call changed
        call nz,draw_score
        ld hl,level
        ld de,shown_level
        ld b,1
        call changed
        call nz,draw_level
        ld hl,stats
        ld de,shown_stats
        ld c,STATS_ROW
.stat:  ld b,2
        push bc
        call changed
        pop bc
        call nz,draw_stat
        inc hl
        inc hl
        inc de
        inc de
        inc c
        inc c
        ld a,c
        cp STATS_ROW+14
        jr c,.stat
        ret

; draw_start_numbers: the numbers a game starts with, and the next piece's box, drawn while it
; starts (so that its first frames, a B-type's garbage among them, have only the play to draw).
draw_start_numbers:
        ld hl,next_box          ; NEXT's box, in half cells round the next piece
        call draw_picture
        ld a,TEXT_ATTR
        ld (text_attr),a
        ld hl,shown_lines
        ld b,shown_end-shown_lines
.zero2:  ld (hl),0
        inc hl
        djnz .zero2
        ld a,(game_type)
        or a
        jr z,.a3
        ld a,25h                ; B-type counts 25 lines down
        ld (shown_lines),a
.a3:     ld a,(sel_level)
        ld (shown_level),a
        call draw_lines
        call draw_score
        call draw_level
        ld de,shown_stats
        ld c,STATS_ROW
.stat2:  call draw_stat
        inc de
        inc de
        inc c
        inc c
        ld a,c
        cp STATS_ROW+14
        jr c,.stat2
        ret

; draw_lines, draw_score, draw_level: the shown values. Keep HL, DE.
draw_lines:
        push de
        ld de,0011h             ; row 0, column 17
        ld a,(shown_lines+1)
        and 0Fh
        call put_digit
        ld a,(shown_lines)
        call put_bcd
        pop de
        ret

draw_score:
        push de
        ld de,0517h             ; row 5, column 23
        ld a,(shown_score+2)
        call put_bcd
        ld a,(shown_score+1)
        call put_bcd
        ld a,(shown_score)
        call put_bcd
        pop de
        ret

; draw_level: the level in decimal (its last two digits), and the small pieces in its colours.
draw_level:
        push hl
        push de
        push ix
        ld de,0F18h             ; row 15, column 24
        ld a,(shown_level)
        call put_dec2
        ld a,(shown_level)
        call set_colours_of
        ld ix,mini_pieces
        ld hl,mini_class
        ld d,STATS_ROW
.mcol:  ld a,(hl)
        inc hl
        push hl
        call field_attr         ; the paper colour and BRIGHT, as ink
        ld c,a
        rrca
        rrca
        rrca
        and 7
        ld e,a
        ld a,c
        and 40h
        or e
        ld c,a
        ld e,1
        call attr_addr          ; (columns 1-4: one attribute row)
        ld b,4
.mcell: ld a,(ix+0)
        inc ix
        call block_attr
        ld (hl),a
        inc l
        djnz .mcell
        pop hl
        inc d
        inc d
        ld a,d
        cp STATS_ROW+14
        jr c,.mcol
        pop ix
        pop de
        pop hl
        ret

; put_dec2: the last two decimal digits of A (0-255) at row D, column E; E moves on.
put_dec2:
.hund:  sub 100
        jr nc,.hund
        add a,100
        ld b,-1
.tens:  inc b
        sub 10
        jr nc,.tens
        add a,10
        ld c,a
        ld a,b
        call put_digit
        ld a,c
        jp put_digit

; draw_stat: the statistics count at DE (BCD, little-endian) on row C. Keeps BC, DE, HL.
draw_stat:
        push hl
        push de
        push bc
        ex de,hl
        ld d,c
        ld e,6
        ld a,(hl)               ; the tens and units
        inc hl
        ld b,a
        ld a,(hl)               ; the hundreds
        and 0Fh
        call put_digit
        ld a,b
        call put_bcd
        pop bc
        pop de
        pop hl
        ret

; changed: do the B bytes at HL differ from those at DE? NZ: yes, and DE's are now HL's. Keeps
; HL, DE.
changed:
        push hl
        push de
        push bc
.cmp2:   ld a,(de)
        cp (hl)
        jr nz,.diff
        inc hl
        inc de
        djnz .cmp2
        pop bc
        pop de
        pop hl
        ret
.diff:  pop bc
        pop de
        pop hl
        push hl
        push de
        push bc
        ld c,b
        ld b,0
        ldir
        pop bc
        pop de
        pop hl
        or 1
        ret

; next_shown: A = the next piece's orientation, or 19 (none) while Select has hidden it.
next_shown:
        ld a,(hide_next)
        or a
        ld a,19
        ret nz
        ld a,(next)
        ret

; draw_curtain: after a top-out the curtain comes down over the playfield, a row at a time.
draw_curtain:
        ld a,(curtain)
        dec a
        cp 20
        ret nc
        add a,FIELD_ROW
        ld d,a
        ld e,FIELD_COL
        ld b,10
        ld c,CURTAIN_ATTR
        jp paint

render_game:
        ld a,(ending)
        cp END_SCENE
        jp z,render_ending
        ld a,(shown_mode)
        cp GAME_SHOWN
        jr z,.framed
        ld a,GAME_SHOWN         ; the game's first frame draws nothing: a B-type start's garbage
        ld (shown_mode),a       ; is a full frame's work
        ret
.framed:
        ld a,(dead)
        or a
        jp nz,draw_curtain
        call draw_numbers
        ld a,(paused)
        or a
        jr z,.show
        ld a,(field_dirty)      ; paused: the playfield is hidden
        or a
        ret nz
        inc a
        ld (field_dirty),a
        ld de,FIELD_ROW*256+FIELD_COL
        ld c,EMPTY_ATTR
.blank: ld b,10
        call paint
        inc d
        ld a,d
        cp FIELD_ROW+20
        jr c,.blank
        ld a,1
        ld (pause_shown),a
        ld hl,pause_text
        ld de,PAUSE_ROW*256+PAUSE_COL
        ld a,LABEL_ATTR
        ld (text_attr),a
        jp print
.show:  ld a,(field_dirty)
        or a
        jr z,.piece
        xor a
        ld (field_dirty),a
        ld hl,pause_shown       ; unpaused: PAUSE's pixels go (draw_field sets the attributes)
        cp (hl)
        jr z,.nopause
        ld (hl),a
        ld hl,no_pause_text
        ld de,PAUSE_ROW*256+PAUSE_COL
        call print
.nopause:
        call draw_field
        ld a,(ending)           ; B-type's goal: SUCCESS over the playfield
        or a
        call nz,draw_success
        jr .new
.piece: ld hl,shown_piece
        ld a,(piece)
        cp (hl)
        jr nz,.moved2
        inc hl
        ld a,(piece_x)
        cp (hl)
        jr nz,.moved2
        inc hl
        ld a,(piece_y)
        cp (hl)
        jr nz,.moved2
        inc hl
        call next_shown
        cp (hl)
        ret z
.moved2: ld a,(shown_piece)      ; put back the playfield under the old piece
        ld c,a
        ld a,(shown_x)
        ld d,a
        ld a,(shown_y)
        ld e,a
        ld b,0
        call draw_minos
        ld a,(shown_next)
        ld c,a
        ld e,NEXT_Y
        ld d,NEXT_X
        ld b,1
        ld a,EMPTY_ATTR
        ld (mino_attr),a
        call draw_minos
.new:   ld a,(piece)
        ld (shown_piece),a
        ld c,a
        ld a,(piece_x)
        ld (shown_x),a
        ld d,a
        ld a,(piece_y)
        ld (shown_y),a
        ld e,a
        ld a,(play_state)       ; the piece shows while it moves and locks
        cp PS_CHECK
        jr nc,.next2
        ld a,c
        push de                 ; (class_attr takes DE)
        call class_attr
        pop de
        ld b,1
        call draw_minos
.next2:  call next_shown
        ld (shown_next),a
        ld c,a
        cp 19
        ret nc                  ; hidden
        call class_attr
        ld d,NEXT_X
        ld e,NEXT_Y
        ld b,1
        jp draw_minos

; class_attr: the attribute of orientation A's tile class into mino_attr. Clobbers AF, DE, HL.
class_attr:
        ld e,a
        ld d,0
        ld hl,tile_class
        add hl,de
        ld a,(hl)
        call field_attr
        ld (mino_attr),a
        ret

; set_colours: class_attrs = the attributes of empty and tile classes 1-3 at this level (the
; colours repeat every 10 levels). Clobbers AF, DE, HL.
set_colours:
        ld a,(level)
set_colours_of:                 ; (A = the level)
.mod10: sub 10
        jr nc,.mod10
        add a,10
        add a,a
        ld e,a
        ld d,0
        ld hl,level_colours
        add hl,de
        ld de,class_attrs+2
        ldi
        ldi
        ld a,EMPTY_ATTR
        ld (class_attrs),a
        ld a,7*8+40h            ; the white tile
        ld (class_attrs+1),a
        ret

; field_attr: A = the attribute of playfield byte A (0 empty, 1-3 a tile class). Keeps BC, DE, HL.
field_attr:
        push hl
        hl_at class_attrs
        ld a,(hl)
        pop hl
        ret

; draw_minos: orientation C's minos with the pivot at column D, row E of the playfield; B = 1
; paints them mino_attr, B = 0 puts back the playfield's own cells. Rows outside 0-19 are hidden.
draw_minos:
        ld a,c
        cp 19
        ret nc                  ; no piece
        minos_of
        ld c,4
.mino2:  ld a,(hl)
        inc hl
        add a,d
        ld (tmp_x),a
        ld a,(hl)
        inc hl
        add a,e
        cp 20
        jr nc,.skip2             ; above the top (negative) or below the floor
        push hl
        push de
        call cell_attr          ; HL = its attribute, A = the row
        ld a,b
        or a
        ld a,(mino_attr)
        jr nz,.put
        push hl                 ; the playfield's cell
        ld a,(draw_row)
        ld l,a
        add a,a
        add a,a
        add a,l
        add a,a
        ld l,a
        ld a,(tmp_x)
        add a,l
        ld l,a
        ld h,high(playfield)
        ld a,(hl)
        call field_attr
        pop hl
.put:   ld (hl),a
        pop de
        pop hl
.skip2:  dec c
        jr nz,.mino2
        ret

; cell_attr: HL = the attribute of playfield row A (0-19), column tmp_x. Keeps B, C.
cell_attr:
        ld (draw_row),a
        add a,FIELD_ROW
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld a,(tmp_x)
        add a,FIELD_COL
        add a,l
        ld l,a
        ld a,h
        adc a,high(ATTR)
        ld h,a
        ret

; draw_field: the 200 cells.
draw_field:
        call set_colours
        ld hl,playfield
        ld de,ATTR+FIELD_ROW*32+FIELD_COL
        ld c,20
.row5:   ld b,10
.cell4:  ld a,(hl)
        call field_attr
        ld (de),a
        inc l
        inc de
        djnz .cell4
        ex de,hl
        push bc
        ld bc,22
        add hl,bc
        pop bc
        ex de,hl
        dec c
        jr nz,.row5
        ret

; draw_frame: the playfield's frame.
draw_frame:
        ld hl,ATTR+(FIELD_ROW-1)*32+FIELD_COL-1
        ld bc,10*256+20
; draw_box: a frame of FRAME_ATTR cells round B columns x C rows of attribute cells, HL = the
; attribute of its top-left corner. Clobbers everything.
draw_box:
        ld a,b
        add a,2
        ld e,a                  ; E = the frame's width, corners included
        ld d,0
        call .across            ; the top
.side:  call .down
        ld (hl),FRAME_ATTR
        push hl
        add hl,de
        dec hl
        ld (hl),FRAME_ATTR
        pop hl
        dec c
        jr nz,.side
        call .down              ; the bottom
.across:
        push hl
        ld b,e
.cell5:  ld (hl),FRAME_ATTR
        inc hl
        djnz .cell5
        pop hl
        ret
.down:  ld a,l                  ; HL = the row below
        add a,32
        ld l,a
        ret nc
        inc h
        ret

; The colours per level mod 10 (colour 2, colour 3), the NES's colorTable mapped to Spectrum
; attributes (paper colour; BRIGHT for the light NES colours): see docs/tetris.md.
level_colours:
        db 5*8+40h, 1*8         ; 0: light blue, blue
        db 4*8+40h, 4*8         ; 1: lime, green
        db 3*8+40h, 3*8         ; 2: pink, magenta
        db 4*8+40h, 1*8         ; 3: green, blue
        db 5*8+40h, 2*8         ; 4: aqua-green, red-pink
        db 1*8+40h, 4*8+40h     ; 5: periwinkle, aqua-green
        db 7*8, 2*8+40h         ; 6: grey, orange-red
        db 2*8, 1*8+40h         ; 7: dark red, violet
        db 2*8+40h, 1*8         ; 8: orange-red, blue
        db 6*8+40h, 2*8+40h     ; 9: orange, orange-red

; The statistics' pieces' tile classes, T J Z O S L I (pieces.asm's tile_class).
mini_class: db 1,3,2,1,3,2,1

; The statistics' small pieces, T J Z O S L I as the NES shows them, a mino half a cell high:
; the half-block codes (put_block) of columns 1-4.
mini_pieces:
        db 1,3,1,0              ; T
        db 1,1,3,0              ; J
        db 1,3,2,0              ; Z
        db 0,3,3,0              ; O
        db 2,3,1,0              ; S
        db 3,1,1,0              ; L
        db 1,1,1,1              ; I

; The box round the next piece (rows 10-11, columns 23-26), half a cell thick (draw_picture).
next_box:
        db 9,22,07h,6,4,2,2,2,2,5
        db 10,22,07h,1,6
        db 10,27,07h,1,7
        db 11,22,07h,1,6
        db 11,27,07h,1,7
        db 12,22,07h,6,8,1,1,1,1,9
        db 0FFh

; The screens' texts: (row, column, attribute, text, 0) lists ended by FFh. The NES's words, in
; our font and the workbench's 24 rows.
screen_texts: dw legal_texts, title_texts, game_type_texts, level_texts, name_texts

legal_texts:
        db 3,6,TEXT_ATTR,"TM AND (C) 1987 V/O",0
        db 5,2,TEXT_ATTR,"ELECTRONORGTECHNICA (",34,"ELORG",34,")",0
        db 8,7,TEXT_ATTR,"TETRIS LICENSED TO",0
        db 10,12,TEXT_ATTR,"NINTENDO",0
        db 12,8,TEXT_ATTR,"(C) 1989 NINTENDO",0
        db 14,7,TEXT_ATTR,"ALL RIGHTS RESERVED",0
        db 18,4,TEXT_ATTR,"ORIGINAL CONCEPT, DESIGN",0
        db 19,4,TEXT_ATTR,"AND PROGRAM BY",0
        db 20,4,TEXT_ATTR,"ALEXEY PAZHITNOV",0
        db 0FFh

title_texts:                    ; (TETRIS is a picture: title_picture)
        db 15,11,LABEL_ATTR,"PUSH START",0
        db 18,9,TEXT_ATTR,"P: TETRIS PRINTER",0
        db 21,8,TEXT_ATTR,"(C) 1989 NINTENDO",0
        db 0FFh

game_type_texts:
        db 3,11,LABEL_ATTR,"GAME TYPE",0
        db 6,5,TEXT_ATTR,"A-TYPE",0
        db 6,21,TEXT_ATTR,"B-TYPE",0
        db 11,11,LABEL_ATTR,"MUSIC TYPE",0
        db 14,12,TEXT_ATTR,"MUSIC-1",0
        db 16,12,TEXT_ATTR,"MUSIC-2",0
        db 18,12,TEXT_ATTR,"MUSIC-3",0
        db 20,14,TEXT_ATTR,"OFF",0
        db 0FFh
; The options the cursor picks from: (row, column, width), game type then music.
game_type_options:
        db 6,5,6, 6,21,6, 14,12,7, 16,12,7, 18,12,7, 20,14,3, 0FFh

level_texts:
        db 3,3,LABEL_ATTR,"LEVEL",0
        db 5,3,TEXT_ATTR,"0 1 2 3 4",0
        db 7,3,TEXT_ATTR,"5 6 7 8 9",0
        db 0FFh
level_a_texts:
        db 0,13,LABEL_ATTR,"A-TYPE",0
        db 0FFh
level_b_texts:
        db 0,13,LABEL_ATTR,"B-TYPE",0
        db 3,19,LABEL_ATTR,"HEIGHT",0
        db 5,19,TEXT_ATTR,"0 1 2",0
        db 7,19,TEXT_ATTR,"3 4 5",0
        db 0FFh
level_options:
        db 5,3,1, 5,5,1, 5,7,1, 5,9,1, 5,11,1, 7,3,1, 7,5,1, 7,7,1, 7,9,1, 7,11,1, 0FFh
height_options:
        db 5,19,1, 5,21,1, 5,23,1, 7,19,1, 7,21,1, 7,23,1, 0FFh

name_texts:
        db 2,8,LABEL_ATTR,"CONGRATULATIONS",0
        db 4,4,TEXT_ATTR,"YOU ARE A TETRIS MASTER.",0
        db 6,5,TEXT_ATTR,"PLEASE ENTER YOUR NAME",0
        db 0FFh

; The title: TETRIS in letters of 3 x 5 half-cells, a colour each (draw_picture).
title_picture:
        db 4,5,42h,3,1,3,1
        db 4,9,46h,3,3,1,1
        db 4,13,44h,3,1,3,1
        db 4,17,45h,3,3,1,2
        db 4,21,43h,3,1,3,1
        db 4,25,47h,3,3,1,1
        db 5,6,42h,1,3
        db 5,9,46h,2,3,1
        db 5,14,44h,1,3
        db 5,17,45h,3,3,1,2
        db 5,22,43h,1,3
        db 5,25,47h,3,1,1,3
        db 6,6,42h,1,1
        db 6,9,46h,3,1,1,1
        db 6,14,44h,1,1
        db 6,17,45h,3,1,0,1
        db 6,21,43h,3,1,1,1
        db 6,25,47h,3,1,1,1
        db 0FFh

game_texts:
        db 0,11,LABEL_ATTR,"LINES-",0
        db 2,0,LABEL_ATTR,"STATISTICS",0
        db 1,23,LABEL_ATTR,"TOP",0
        db 4,23,LABEL_ATTR,"SCORE",0
        db 8,23,LABEL_ATTR,"NEXT",0
        db 14,23,LABEL_ATTR,"LEVEL",0
        db 0FFh
a_type_text:    db "A-TYPE",0
b_type_text:    db "B-TYPE",0
pause_text:     db "PAUSE",0
no_pause_text:  db "     ",0
