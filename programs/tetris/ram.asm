; Tetris's RAM: every piece of state by name, so that the tests, the debugger and --trace-state read
; it by label. The playfield is one aligned 256-byte page, as the NES keeps it at $0400: cell
; (row, column) is byte row*10+column; rows -2 and -1 (above the top) wrap to bytes 236-255, as on
; the NES (nes-tetris.md section 1). 0 is an empty cell, 1-3 the tile class of a locked mino.

        org 0C000h
playfield:      ds 256


cells:          ds 8            ; the addresses of a piece's 4 cells, from cells_of (one page: no carry out of the low byte)

; The field the play routines work on (cells_of, lock_piece, check_row, spawn_piece): the game's
; 10 x 20 playfield, or the printer's 21 x 42 (printer.asm swaps these).
field_w:        db 10           ; columns
field_rows:     db 22           ; rows from row -2 (the two hidden rows above the top) to the floor
row_table:      dw game_rows    ; the address of each row's first cell, from row -2
field_top:      dw playfield    ; row 0's first cell: a line clear moves the cells from here down
class_table:    dw tile_class   ; what a locked mino of each orientation writes into the field

; Frame and input
pad:            db 0            ; buttons held this frame (NES order: A B Select Start Up Down Left Right)
pressed:        db 0            ; newly pressed: held now, not held on the previous frame
prev:           db 0            ; the previous frame's buttons
frame_counter:  db 0            ; the NES's frameCounter, low bits (the line-clear animation steps on & 3)
rng:            dw 0            ; the 16-bit LFSR, rng+1 = the high byte the game reads
spawn_count:    db 0            ; pick counter, mod 8 (only its low 3 bits matter)
spawn_id:       db 0            ; the orientation picked last (0 at power-on)

; Menus
in_game:        db 0            ; 0 in the menus, 1 once a game has started
menu_mode:      db 0            ; MENU_LEGAL, MENU_TITLE, MENU_GAMETYPE, MENU_LEVEL
delay:          dw 0            ; frames with the screen being set up: no NMI, nothing advances
legal_timer:    db 0            ; the legal screen's skippable part (frames left)
start_game:     db 0            ; 1: the level menu chose; the game starts on the next NMI frame
game_type:      db 0            ; 0 A-type, 1 B-type
sel_level:      db 0            ; the level chosen in the menu (0-9, +10 with A+Start)
sel_height:     db 0            ; B-type height 0-5
sel_on_height:  db 0            ; 1 while the level menu's cursor is on the height

; Game
dead:           db 0            ; 1 after a top-out: the game is over and stands still
paused:         db 0
gms:            db 0            ; game mode state: GMS_PLAY, GMS_START (start button), GMS_UNPAUSE
play_state:     db 0            ; PS_MOVE .. PS_SPAWN
play_delay:     db 0            ; frames where playState 6 and 7 run (B-type goal, garbage)
row_offset:     db 0            ; which of the 4 rows near the piece the row check is at
lines_delay:    db 0            ; line-clear animation steps left
render_rows:    db 0            ; playfield rows copied to the screen / 4 (5 = all done)
cleared:        db 0            ; lines completed by this lock
piece:          db 0            ; current orientation 0-18 (19 = none)
piece_x:        db 0            ; pivot column
piece_y:        db 0            ; pivot row
next:           db 0            ; next piece (a spawn orientation)
fall:           db 0            ; fallTimer
shift_ar:       db 0            ; DAS counter, counting down: 15 on a press, 5 after a repeat
drop_ar:        db 0            ; autorepeatY (signed: -96 at the start = first piece hangs)
hold_down:      db 0            ; holdDownPoints
score:          ds 4            ; BCD, little-endian: score = 2 low digits; score+3 only when uncapped
lines:          dw 0            ; BCD, little-endian
level:          db 0
uncapped:       db 0            ; 1: the score goes past 999,999 (the oracle's test modifier)
stats:          ds 14           ; pieces dealt per type, BCD words, T J Z O S L I

; Screen bookkeeping
field_dirty:    db 0            ; the playfield changed: redraw it
shown_piece:    db 0            ; the piece, position and next piece last drawn
shown_x:        db 0
shown_y:        db 0
shown_next:     db 0
shown_mode:     db 0FFh         ; the menu screen last drawn (FFh: none)
shown_cursor:   db 0FFh
tmp_x:          db 0
mino_attr:      db 0
draw_row:       db 0
class_attrs:    ds 4            ; attributes of empty and tile classes 1-3 at this level
shown_lines:    ds 2            ; the numbers last drawn (FFh: unknown)
shown_score:    ds 3
shown_level:    ds 1
shown_stats:    ds 14
shown_end:
drawing_mode:   db 0FFh         ; the screen being drawn (cleared, its texts under way)
text_ptr:       dw 0            ; its next text
text_budget:    db 0            ; characters draw_texts may still draw this frame
text_col:       db 0
numbers_due:    db 0            ; 1: the game's screen is drawn, its starting numbers not yet
fill_sp:        dw 0            ; SP kept while fill pushes into the screen
text_attr:      db 0            ; the colours put_char writes
sel_attr:       db 0            ; the colours of the menu choice being painted
pause_shown:    db 0            ; PAUSE is on the playfield
hide_next:      db 0            ; 1: Select has hidden the next piece (the NES's toggle)
music_type:     db 0            ; the game-type menu's music: 0-2 MUSIC-1 to 3, 3 OFF (no sound here)
curtain:        db 0            ; after a top-out: the curtain's row + 1 (from -16: 64 frames' wait)

; The B-type ending (ending.asm)
ending:         db 0            ; 0 playing; the goal reached: END_SUCCESS, then END_SCENE
end_timer:      dw 0            ; frames left of SUCCESS in the playfield
end_drawn:      db 0            ; the scene: 0 to clear, 1-2 to draw, 3 drawn (its objects moving)
end_x:          ds 6            ; the scene's objects: their columns (32 and up: off the right)
end_shown:      ds 6            ; and where they were drawn (FFh: nowhere)

; The high scores (highscores.asm): the NES's table, three entries per game type, A-type's then
; B-type's, each a name (6 characters of the font), a score (BCD, little-endian) and a level.
; The NES's names and scores at power-on; the save file (the user's data directory) replaces them.
hs_table:       db "HOWARD",00h,00h,01h,9
                db "OTASAN",00h,75h,00h,5
                db "LANCE ",00h,50h,00h,0
                db "ALEX  ",00h,20h,00h,9
                db "TONY  ",00h,10h,00h,5
                db "NINTEN",00h,05h,00h,0
hs_table_end:
hs_pos:         db 0            ; the entry being named: its offset in hs_table
hs_row:         db 0            ; and its screen row
hs_letter:      db 0            ; the letter the cursor is on, 0-5
hs_repeat:      db 0            ; frames until a held Up or Down changes the letter again
extra_step:     db 0            ; a menu's pictures and table rows drawn so far, one a frame
hs_buf:         ds hs_table_end-hs_table+3  ; the save file as read: "TS", the table, its sum

; The printer (printer.asm)
printer_go:     db 0            ; 1 before the run (retro run --printer): print printer_seq at power-on
printer_on:     db 0            ; 1: the printer runs instead of the game
p_state:        db 0            ; P_NEXT .. P_JAM
p_ptr:          dw 0            ; the next drop in the sequence
p_left:         dw 0            ; drops not yet started
p_target:       db 0            ; this drop's orientation
p_col:          db 0            ; and pivot column
p_turns:        db 0            ; presses of p_button left to turn it
p_button:       db 0            ; BTN_A (clockwise) or BTN_B
p_was:          db 0            ; the orientation or column before a press (a press that does nothing jams)
p_drawn:        db 0            ; 0: the screen is to be cleared, 1: framed, 2: drawn
p_redraw:       db 0            ; the next pair of field rows to redraw after a line clear
p_redraw_n:     db 0            ; pairs still to redraw
p_status:       db 0            ; the end state whose text is shown
p_row:          db 0            ; the cell p_value reads
p_column:       db 0
p_bright:       db 0            ; 40h: the picture's colours are the BRIGHT ones
p_best:         dw 0            ; p_match's nearest distance so far
p_try:          ds 3            ; p_match's inks for J, T, L
p_inks:         ds 8            ; the ink of each field colour (1-3 J, T, L; 4-7 the others)
p_ovl:          ds 8            ; the falling piece's minos now (row, column; row FFh: none)
p_shown:        ds 8            ; and as they were last drawn
pfield:         ds 21*45        ; the printer's field: 2 hidden rows, 42 rows, an empty row below

        org 0D000h
; The sequence to print (retro run --printer puts Sequence::to_bytes here), up to FE00h.
printer_seq:    ds 1
