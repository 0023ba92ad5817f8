; The menus: legal screen, title, game type (with music), level (and B-type height); the
; high-score name entry is in highscores.asm. Each screen
; change takes frames during which the NES uploads a screen with NMI off: nothing advances then
; (`delay`). The frame counts are the oracle's (meta_nestris), which match the legal screen's
; 255 + 255 frames of nes-tetris.md section 12.

; menu_frame: one frame in the menus.
menu_frame:
        ld hl,(delay)
        ld a,h
        or l
        jr z,.nmi
        dec hl
        ld (delay),hl
        jp set_prev
.nmi:   ld hl,frame_counter
        inc (hl)
        call rng_step
        ld a,(start_game)
        or a
        jr z,.menu
        call rng_step
        jp game_init            ; the previous frame's buttons stay the game's "previous"
.menu:  ld a,(menu_mode)
        or a
        jr z,legal_screen
        dec a
        jr z,title_screen
        dec a
        jr z,game_type_menu
        dec a
        jp z,level_menu
        jp name_entry

; set_prev: this frame's buttons become the previous frame's.
set_prev:
        ld a,(pad)
        ld (prev),a
        ret

; new_screen: to menu A after DE frames of screen upload, with B RNG steps and C added to the
; frame counter on the way (the NMIs around the upload).
new_screen:
        ld (menu_mode),a
        ld (delay),de
        ld a,(frame_counter)
        add a,c
        ld (frame_counter),a
        call rng_steps
        jp set_prev

legal_screen:
        ld a,(pressed)
        cp BTN_START
        jr z,.skip
        ld hl,legal_timer
        ld a,(hl)
        or a
        jr z,.skip
        dec (hl)
        jp set_prev
.skip:  ld a,MENU_TITLE
        ld de,4
        ld bc,0400h
        jp new_screen

title_screen:
        ld a,0DFh               ; P (the keyboard's P-Y half-row, bit 0): print the built-in picture
        in a,(0FEh)
        rra
        jr c,.nop
        ld hl,printer_picture
        jp printer_start
.nop:   ld a,(pressed)
        cp BTN_START
        jp nz,set_prev
        ld a,MENU_GAMETYPE
        ld de,3
        ld bc,0303h
        jp new_screen

game_type_menu:
        ld hl,music_type        ; Down and Up choose the music (there is no sound: it is only shown)
        ld a,(pressed)
        cp BTN_DOWN
        jr nz,.notd
        ld a,(hl)
        cp 3
        jp nc,set_prev
        inc (hl)
        jp set_prev
.notd:  cp BTN_UP
        jr nz,.notu
        ld a,(hl)
        or a
        jp z,set_prev
        dec (hl)
        jp set_prev
.notu:  cp BTN_LEFT
        jr nz,.notl
        xor a
        ld (game_type),a
        jp set_prev
.notl:  cp BTN_RIGHT
        jr nz,.notr
        ld a,1
        ld (game_type),a
        jp set_prev
.notr:  cp BTN_START
        jr nz,.nots
        xor a
        ld (sel_on_height),a
        ld a,(sel_level)
        cp 10
        jr c,.lv
        sub 10
        ld (sel_level),a
.lv:    ld a,MENU_LEVEL
        ld de,4
        ld bc,0303h
        jp new_screen
.nots:  cp BTN_B
        jp nz,set_prev
        ld a,MENU_TITLE
        ld de,5
        ld bc,0501h
        jp new_screen

level_menu:
        ld a,(sel_on_height)
        or a
        ld a,(pressed)
        jr z,.level
        ld hl,sel_height
        ld de,0306h             ; D = the vertical step, E = the limit
        jr .move
.level: ld hl,sel_level
        ld de,050Ah
.move:  ld c,1
        cp BTN_RIGHT
        jr z,.try
        ld c,-1
        cp BTN_LEFT
        jr z,.try
        ld c,d
        cp BTN_DOWN
        jr z,.try
        xor a
        sub d
        ld c,a
        ld a,(pressed)
        cp BTN_UP
        jr nz,.moved
.try:   ld a,(hl)
        add a,c
        cp e                    ; below the limit (a negative result is a large byte)
        jr nc,.moved
        ld (hl),a
.moved: ld a,(pressed)
        cp BTN_A
        jr nz,.nota
        ld a,(game_type)
        or a
        jr z,.nota
        ld hl,sel_on_height
        ld a,(hl)
        xor 1
        ld (hl),a
.nota:  ld a,(pressed)
        cp BTN_START
        jr nz,.nots2
        ld a,(pad)
        cp BTN_START|BTN_A      ; A held with Start: ten levels more
        jr nz,.noplus
        ld a,(sel_level)
        add a,10
        ld (sel_level),a
.noplus:
        ld hl,3
        ld a,(game_type)
        or a
        jr z,.a
        ld hl,15
.a:     ld (delay),hl
        ld a,(frame_counter)
        add a,3
        ld (frame_counter),a
        ld b,2
        call rng_steps
        ld a,1
        ld (start_game),a
        jp set_prev
.nots2:  cp BTN_B
        jr nz,.holes
        ld a,MENU_GAMETYPE
        ld de,3
        ld bc,0303h
        jp new_screen
.holes: call rng_hole           ; the B-type hole columns, chosen every frame (section 3)
        call rng_hole
        jp set_prev
