; The high scores as on the NES: three per game type (hs_table, ram.asm), shown under the level
; menu; a game whose score beats one of its type's three names it on the name-entry screen (6
; letters: Up and Down change the letter (held, they repeat), Right or A the next, Left or B the one before, Start
; keeps it). The table is kept in the machine's save area (docs/z80-machine.md), a file of the
; user's data directory, and read back at power-on. A movie's replay starts from the NES's table.

HS_ENTRY        equ 10          ; a name (6), a score (3), a level (1)
HS_NAME_ROW     equ 14          ; the screen row of a type's first entry (the header 2 above)
HS_SUM          equ hs_table_end-hs_table

; hs_load: the save area's bytes into hs_buf; when they are ours ("TS", the table, its sum, and
; names of the font's characters) they become the table. Clobbers everything.
hs_load:
        xor a
        out (SAVE_CONTROL),a
        ld hl,hs_buf
        ld b,HS_SUM+3
.read:  in a,(SAVE_DATA)
        ld (hl),a
        inc hl
        djnz .read
        ld hl,(hs_buf)
        ld de,'T'+'S'*256
        or a
        sbc hl,de
        ret nz
        ld hl,hs_buf+2
        ld b,HS_SUM
        xor a
.sum:   add a,(hl)
        inc hl
        djnz .sum
        cp (hl)
        ret nz
        ld hl,hs_buf+2          ; every name's letters in ' ' to 'Z'
        ld c,6
.ename: ld b,6
.letter:
        ld a,(hl)
        sub ' '
        cp 'Z'-' '+1
        ret nc
        inc hl
        djnz .letter
        ld de,HS_ENTRY-6
        add hl,de
        dec c
        jr nz,.ename
        ld hl,hs_buf+2
        ld de,hs_table
        ld bc,HS_SUM
        ldir
        ret

; hs_save: the table into the save area, kept ("TS", the table, its sum).
hs_save:
        xor a
        out (SAVE_CONTROL),a
        ld a,'T'
        out (SAVE_DATA),a
        ld a,'S'
        out (SAVE_DATA),a
        ld hl,hs_table
        ld bc,HS_SUM*256+SAVE_DATA
        xor a
.write: add a,(hl)
        outi                    ; (B counts down)
        jr nz,.write
        out (SAVE_DATA),a
        ld a,1
        out (SAVE_CONTROL),a
        ret

; hs_base: HL = the game type's first entry, A = its offset. Keeps BC, DE.
hs_base:
        ld a,(game_type)
        or a
        jr z,.atype
        ld a,3*HS_ENTRY
.atype:     ld hl,hs_table
        push af
        add_hl_a
        pop af
        ret

; hs_insert: the score's place in its type's three: the first entry it beats (the NES's compare:
; greater, not equal). That entry and those below move down a place, the last one drops off, and
; the new one gets a blank name, the score and the level. No carry: named (hs_pos, hs_row,
; hs_letter set); carry: the score beats none.
hs_insert:
        call hs_base
        ld c,a                  ; C = the offset of the entry compared
        ld b,3
.cmp:   push bc
        ld hl,hs_table+8        ; its score's top byte
        ld a,c
        add_hl_a
        ld de,score+2
        ld b,3
.byte:  ld a,(de)
        cp (hl)
        jr c,.below
        jr nz,.beats
        dec hl
        dec de
        djnz .byte
.below: pop bc
        ld a,c
        add a,HS_ENTRY
        ld c,a
        djnz .cmp
        scf
        ret
.beats: pop bc
        ld a,3
        sub b
        add a,HS_NAME_ROW
        ld (hs_row),a
        ld a,c
        ld (hs_pos),a
        ld a,b                  ; the B - 1 entries below move down one
        dec a
        jr z,.blankname
        ld e,a
        add a,a
        add a,a
        add a,e
        add a,a
        ld b,0
        ld c,a                  ; BC = their bytes
        ld a,(hs_pos)
        add a,c
        dec a                   ; the last byte that moves
        ld hl,hs_table
        add_hl_a
        ld d,h
        ld e,l
        ld a,HS_ENTRY
        add a,e
        ld e,a
        adc a,d
        sub e
        ld d,a                  ; DE = HL + an entry
        lddr
.blankname:   ld hl,hs_table
        ld a,(hs_pos)
        add_hl_a
        ld b,6
.space: ld (hl),' '
        inc hl
        djnz .space
        ld de,score
        ld b,3
.copy:  ld a,(de)
        ld (hl),a
        inc hl
        inc de
        djnz .copy
        ld a,(level)
        ld (hl),a
        xor a
        ld (hs_letter),a
        ret

; name_entry: a frame of the name-entry screen (menu_frame's NMI frames).
name_entry:
        ld a,(pressed)
        ld c,a
        and BTN_START
        jr z,.edit
        call hs_save
        ld a,MENU_LEVEL
        ld de,4
        ld bc,0303h
        jp new_screen
.edit:  ld hl,hs_letter
        ld a,c
        and BTN_RIGHT|BTN_A
        jr z,.notnext
        ld a,(hl)
        inc a
        cp 6
        jr c,.nextl
        xor a
.nextl:  ld (hl),a
.notnext:
        ld a,c
        and BTN_LEFT|BTN_B
        jr z,.notprev
        ld a,(hl)
        dec a
        jp p,.prev
        ld a,5
.prev:  ld (hl),a
.notprev:
        ld d,1                  ; Up: the next character; Down: the one before
        ld a,(pad)
        and BTN_UP|BTN_DOWN
        cp BTN_UP
        jr z,.held
        ld d,-1
        cp BTN_DOWN
        jp nz,set_prev
.held:  and c                   ; a new press changes it at once; held, 16 frames later,
        ld hl,hs_repeat         ; then every 6th (as the game's DAS)
        ld a,16
        jr nz,.again
        dec (hl)
        jp nz,set_prev
        ld a,6
.again: ld (hl),a
.change:
        ld a,(hs_pos)
        ld e,a
        ld a,(hs_letter)
        add a,e
        ld hl,hs_table
        add_hl_a                ; HL = the letter
        push hl
        ld a,(hl)
        ld hl,hs_chars
        ld bc,HS_CHARS
        cpir
        ld a,HS_CHARS-1
        sub c                   ; its place in the list (not there: the last, so Up gives a space)
        add a,d
        jp p,.wrapl
        ld a,HS_CHARS-1
.wrapl:   cp HS_CHARS
        jr c,.inlist
        xor a
.inlist:    ld hl,hs_chars
        add_hl_a
        ld a,(hl)
        pop hl
        ld (hl),a
        jp set_prev

; The name's characters, in the order Up steps through them (the NES's: space, A-Z, the digits,
; then punctuation).
hs_chars:       db " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,/()",34,".-"
HS_CHARS        equ $-hs_chars

; menu_extras: what a menu screen shows besides its texts, one step a frame once they are drawn:
; the title's picture; the level menu's and the name entry's table (its header, then an entry a
; frame).
menu_extras:
        ld a,(shown_mode)
        cp MENU_TITLE
        jr nz,.table
        ld a,(extra_step)
        or a
        ret nz
        inc a
        ld (extra_step),a
        ld hl,title_picture
        jp draw_picture
.table: cp MENU_LEVEL
        jr z,.hsrows
        cp MENU_NAME
        ret nz
.hsrows:  ld a,(extra_step)
        cp 4
        ret nc
        inc a
        ld (extra_step),a
        dec a
        jr nz,.hsentry
        ld hl,hs_header
        jp draw_texts_all
.hsentry: dec a                 ; entry 0-2
        ld c,a
        add a,a
        add a,a
        add a,c
        add a,a
        ld b,a                  ; its offset in the type's three
        call hs_base
        add a,b
        ld l,a
        ld a,c
        add a,HS_NAME_ROW
        ld d,a
        ld a,TEXT_ATTR
        ld (text_attr),a
        ld e,6
        ld a,c
        add a,'1'
        call put_char
        ld a,l
; draw_hs_entry: the entry at offset A of hs_table on row D: its name, score and level.
draw_hs_entry:
        ld hl,hs_table
        add_hl_a
        ld e,8
        ld b,6
.name:  ld a,(hl)
        call put_char
        inc hl
        djnz .name
        ld e,15
        inc hl
        inc hl
        call put_score
        inc hl
        inc hl
        inc hl
        ld e,23
        ld a,(hl)
        jp put_dec2

hs_header:
        db HS_NAME_ROW-2,8,LABEL_ATTR,"NAME",0
        db HS_NAME_ROW-2,15,LABEL_ATTR,"SCORE",0
        db HS_NAME_ROW-2,23,LABEL_ATTR,"LV",0
        db 0FFh

; name_cursor: the entry being named, its letter under the cursor flashing (each frame, once the
; table is drawn).
name_cursor:
        ld a,(extra_step)
        cp 4
        ret c
        ld a,TEXT_ATTR
        ld (text_attr),a
        ld a,(hs_row)
        ld d,a
        ld a,(hs_pos)
        call draw_hs_entry
        ld a,(hs_letter)
        add a,8
        ld e,a
        ld b,1
        ld c,SEL_ATTR
        jp paint
