; The 19 orientations (nes-tetris.md section 2, the seed's table at $8A9C): four (dx, dy) pairs
; each, relative to the pivot, y down. IDs as the NES numbers them.
offsets:
        db -1,0,  0,0,  1,0,  0,-1     ; 00 T up
        db 0,-1,  0,0,  1,0,  0,1      ; 01 T right
        db -1,0,  0,0,  1,0,  0,1      ; 02 T down (spawn)
        db 0,-1,  -1,0, 0,0,  0,1      ; 03 T left
        db 0,-1,  0,0,  -1,1, 0,1      ; 04 J left
        db -1,-1, -1,0, 0,0,  1,0      ; 05 J up
        db 0,-1,  1,-1, 0,0,  0,1      ; 06 J right
        db -1,0,  0,0,  1,0,  1,1      ; 07 J down (spawn)
        db -1,0,  0,0,  0,1,  1,1      ; 08 Z horizontal (spawn)
        db 1,-1,  0,0,  1,0,  0,1      ; 09 Z vertical
        db -1,0,  0,0,  -1,1, 0,1      ; 0A O (spawn)
        db 0,0,   1,0,  -1,1, 0,1      ; 0B S horizontal (spawn)
        db 0,-1,  0,0,  1,0,  1,1      ; 0C S vertical
        db 0,-1,  0,0,  0,1,  1,1      ; 0D L right
        db -1,0,  0,0,  1,0,  -1,1     ; 0E L down (spawn)
        db -1,-1, 0,-1, 0,0,  0,1      ; 0F L left
        db 1,-1,  -1,0, 0,0,  1,0      ; 10 L up
        db 0,-2,  0,-1, 0,0,  0,1      ; 11 I vertical
        db -2,0,  -1,0, 0,0,  1,0      ; 12 I horizontal (spawn)

; Rotation (section 2): A turns clockwise, B counter-clockwise; S, Z and I toggle, O stays.
rot_cw:  db 01h,02h,03h,00h, 05h,06h,07h,04h, 09h,08h, 0Ah, 0Ch,0Bh, 0Eh,0Fh,10h,0Dh, 12h,11h
rot_ccw: db 03h,00h,01h,02h, 07h,04h,05h,06h, 09h,08h, 0Ah, 0Ch,0Bh, 10h,0Dh,0Eh,0Fh, 12h,11h

; The tile class of each orientation's minos: 1 = $7B (T, O, I: white with a border),
; 2 = $7C (Z, L: colour 2), 3 = $7D (J, S: colour 3).
tile_class: db 1,1,1,1, 3,3,3,3, 2,2, 1, 3,3, 2,2,2,2, 1,1

; Which statistics counter (T J Z O S L I) an orientation belongs to.
piece_type: db 0,0,0,0, 1,1,1,1, 2,2, 3, 4,4, 5,5,5,5, 6,6

; spawnTable: the spawn orientation of T, J, Z, O, S, L, I (section 3).
spawn_table: db 02h, 07h, 08h, 0Ah, 0Bh, 0Eh, 12h

; framesPerDropTable for levels 0-28; 29 and up drop every frame (section 5).
speed_table:
        db 48,43,38,33,28,23,18,13,8,6, 5,5,5, 4,4,4, 3,3,3
        db 2,2,2,2,2,2,2,2,2,2

; Points for 0-4 lines, 3 BCD bytes each, little-endian: 0, 40, 100, 300, 1200 (section 7).
points: db 00h,00h,00h, 40h,00h,00h, 00h,01h,00h, 00h,03h,00h, 00h,12h,00h
; The same times 10 and times 100 (score.asm multiplies by the level's digits).
points10: db 00h,00h,00h, 00h,04h,00h, 00h,10h,00h, 00h,30h,00h, 00h,20h,01h
points100: db 00h,00h,00h, 00h,40h,00h, 00h,00h,01h, 00h,00h,03h, 00h,00h,12h

; B-type garbage: which of the 8 values of the RNG's low 3 bits make a block, and its tile class
; (0 = empty).
garbage_tiles: db 0,1,0,2,3,1,0,0
; B-type heights 0-5: the rows left empty above the garbage.
garbage_heights: db 20,17,15,12,10,8

; The game's rows from row -2: the hidden rows wrap to the page's last bytes as on the NES; row 20
; (below the floor, which check_row may look at) is the page's zero bytes 200-209.
game_rows:
        dw playfield+236, playfield+246
gr_row  defl 0
        rept 21
        dw playfield+gr_row*10
gr_row  defl gr_row+1
        endm
