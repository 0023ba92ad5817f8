; The screen: attribute cells only (the terminal shows them as coloured cells). The playfield is
; 10 x 20 cells at columns 11-20, rows 2-21, framed; the next piece sits to its right. Colours per
; level as the NES's colorTable, mapped to the Spectrum's 15 colours (docs/tetris.md).

FIELD_COL       equ 11
FIELD_ROW       equ 2
ATTR            equ 5800h
FRAME_ATTR      equ 38h+40h         ; bright white paper: the frame
EMPTY_ATTR      equ 0               ; black

; clear_screen: every attribute black (the bitmap stays empty: only attributes are drawn).
clear_screen:
        ld hl,ATTR
        ld de,ATTR+1
        ld bc,767
        ld (hl),0
        ldir
        xor a
        out (0FEh),a
        ret

; render: the menus show one coloured bar per screen (the cursor a brighter cell); a game shows the
; playfield (when it changed) and the piece (when it moved).
render: ld a,(in_game)
        or a
        jr nz,render_game
        ld a,(menu_mode)
        ld hl,shown_mode
        cp (hl)
        ret z
        ld (hl),a
        call clear_screen
        ld a,(menu_mode)
        inc a
        out (0FEh),a            ; each menu screen its own border colour
        ret

render_game:
        ld a,(shown_mode)
        cp 0FEh
        jr z,.framed
        ld a,0FEh
        ld (shown_mode),a
        jp draw_frame           ; (the menus leave every attribute black) the playfield next frame: a B-type start's garbage is a full frame's work
.framed:
        ld a,(paused)
        or a
        jr z,.show
        ld a,(field_dirty)      ; paused: the playfield is hidden
        or a
        ret nz
        inc a
        ld (field_dirty),a
        ld hl,ATTR+FIELD_ROW*32+FIELD_COL
        ld b,20
.blank: push bc
        push hl
        ld b,10
.bc:    ld (hl),EMPTY_ATTR
        inc hl
        djnz .bc
        pop hl
        ld bc,32
        add hl,bc
        pop bc
        djnz .blank
        ret
.show:  ld a,(field_dirty)
        or a
        jr z,.piece
        xor a
        ld (field_dirty),a
        call draw_field
        jr .new
.piece: ld hl,shown_piece
        ld a,(piece)
        cp (hl)
        jr nz,.moved
        inc hl
        ld a,(piece_x)
        cp (hl)
        jr nz,.moved
        inc hl
        ld a,(piece_y)
        cp (hl)
        jr nz,.moved
        inc hl
        ld a,(next)
        cp (hl)
        ret z
.moved: ld a,(shown_piece)      ; put back the playfield under the old piece
        ld c,a
        ld a,(shown_x)
        ld d,a
        ld a,(shown_y)
        ld e,a
        ld b,0
        call draw_minos
        ld a,(shown_next)
        ld c,a
        ld e,4
        ld d,13
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
        jr nc,.next
        ld a,c
        call class_attr
        ld b,1
        call draw_minos
.next:  ld a,(next)
        ld (shown_next),a
        ld c,a
        call class_attr
        ld d,13
        ld e,4
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
        add a,low(class_attrs)
        ld l,a
        adc a,high(class_attrs)
        sub l
        ld h,a
        ld a,(hl)
        pop hl
        ret

; draw_minos: orientation C's minos with the pivot at column D, row E of the playfield; B = 1
; paints them mino_attr, B = 0 puts back the playfield's own cells. Rows outside 0-19 are hidden.
draw_minos:
        ld a,c
        cp 19
        ret nc                  ; no piece
        add a,a
        add a,a
        add a,a
        add a,low(offsets)
        ld l,a
        adc a,high(offsets)
        sub l
        ld h,a
        ld c,4
.mino:  ld a,(hl)
        inc hl
        add a,d
        ld (tmp_x),a
        ld a,(hl)
        inc hl
        add a,e
        cp 20
        jr nc,.skip             ; above the top (negative) or below the floor
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
.skip:  dec c
        jr nz,.mino
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
.row:   ld b,10
.cell:  ld a,(hl)
        call field_attr
        ld (de),a
        inc l
        inc de
        djnz .cell
        ex de,hl
        push bc
        ld bc,22
        add hl,bc
        pop bc
        ex de,hl
        dec c
        jr nz,.row
        ret

; draw_frame: the playfield's frame and the next-piece box.
draw_frame:
        ld hl,ATTR+(FIELD_ROW-1)*32+FIELD_COL-1
        ld b,12
.top:   ld (hl),FRAME_ATTR
        inc hl
        djnz .top
        ld hl,ATTR+(FIELD_ROW+20)*32+FIELD_COL-1
        ld b,12
.bot:   ld (hl),FRAME_ATTR
        inc hl
        djnz .bot
        ld hl,ATTR+FIELD_ROW*32+FIELD_COL-1
        ld de,32
        ld b,20
.side:  ld (hl),FRAME_ATTR
        push hl
        ld a,l
        add a,11
        ld l,a
        jr nc,.nc
        inc h
.nc:    ld (hl),FRAME_ATTR
        pop hl
        add hl,de
        djnz .side
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
