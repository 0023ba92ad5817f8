; B-type's end at 0 lines (the NES's playState 6, bTypeGoalCheck; docs/tetris.md "The B-type
; ending"): SUCCESS in the playfield for 14 + 128 frames, then the ending's scene, with the
; start level's objects (height + 1 of them) crossing the sky over the cathedral, until Start.
; The oracle (meta_nestris) plays on past 0 lines, so its trace covers the game up to the
; goal's frame, no further.

END_SUCCESS     equ 1           ; `ending`: SUCCESS shown in the playfield
END_SCENE       equ 2           ; the ending's scene
END_WAIT        equ 14+128      ; the NES sleeps 14 frames, then 128 more, before the scene
SUCCESS_ROW     equ 7           ; the playfield rows the NES writes its SUCCESS box into (7-9)
SUCCESS_ATTR    equ 78h         ; black on bright white: the box and its word
END_OBJECTS     equ 6

; goal_check: B-type with the lines down to 0: the ending starts. The NES writes its box into the
; playfield's rows 7-9 (so the state shows 30 filled cells there) and redraws the playfield.
goal_check:
        ld a,(game_type)
        or a
        ret z
        ld hl,(lines)
        ld a,h
        or l
        ret nz
        ld hl,playfield+SUCCESS_ROW*10
        ld b,30
.box:   ld (hl),1
        inc hl
        djnz .box
        ld a,END_SUCCESS
        ld (ending),a
        ld hl,END_WAIT
        ld (end_timer),hl
        xor a
        ld (render_rows),a
        ld (end_drawn),a
        inc a
        ld (field_dirty),a
        ret

; ending_frame: a frame of the ending. The NMI goes on (the frame counter and the RNG step every
; frame, as in the NES's sleeps); the scene's objects move a column every 4th frame; in the
; scene, Start ends the game.
ending_frame:
        ld hl,frame_counter
        inc (hl)
        call rng_step
        ld a,(ending)
        cp END_SCENE
        jr z,.scene
        ld hl,(end_timer)
        dec hl
        ld (end_timer),hl
        ld a,h
        or l
        jp nz,set_prev
        ld a,END_SCENE
        ld (ending),a
        call end_objects
        jp set_prev
.scene: ld a,(end_drawn)
        cp 3
        jp c,set_prev           ; the scene is still being drawn
        ld a,(pressed)
        and BTN_START
        jp nz,game_end
        ld a,(frame_counter)
        and 3
        jp nz,set_prev
        ld hl,end_x
        ld b,END_OBJECTS
.fly:  ld a,(hl)
        cp 7Fh
        jr z,.on
        dec a
        jp p,.col
        ld a,40                 ; off the left: round again from the right
.col:   ld (hl),a
.on:    inc hl
        djnz .fly
        jp set_prev

; end_objects: height + 1 objects, 6 columns apart, entering from the right; the others stay
; off the screen (7Fh).
end_objects:
        ld hl,end_shown
        ld b,END_OBJECTS
.unseen:  ld (hl),0FFh
        inc hl
        djnz .unseen
        ld a,(sel_height)
        inc a
        ld e,a                  ; E = the objects of this ending
        ld hl,end_x
        ld c,32
        ld b,END_OBJECTS
.obj:   ld a,c
        dec e
        jp p,.used
        ld a,7Fh
.used:  ld (hl),a
        inc hl
        ld a,c
        add a,6
        ld c,a
        djnz .obj
        ret

; draw_success: the NES's box in the playfield's rows 7-9: SUCCESS! in black on white.
draw_success:
        ld de,(FIELD_ROW+SUCCESS_ROW)*256+FIELD_COL
        ld c,SUCCESS_ATTR
        ld a,3
.boxrows:  push af
        ld b,10
        call paint
        inc d
        pop af
        dec a
        jr nz,.boxrows
        ld a,SUCCESS_ATTR
        ld (text_attr),a
        ld hl,success_text
        ld de,(FIELD_ROW+SUCCESS_ROW+1)*256+FIELD_COL+1
        jp print

success_text:   db "SUCCESS!",0

; render_ending: the scene: cleared in one frame, drawn in the next two (the domes; the hall and
; the ground),
; then the objects where they moved.
render_ending:
        ld a,(end_drawn)
        or a
        jr nz,.scene2
        inc a
        ld (end_drawn),a
        jp clear_screen
.scene2: dec a
        jr z,.domes
        dec a
        jr z,.hall
        jr .objects
.domes: ld a,2                  ; the domes this frame, the hall and the ground the next
        ld (end_drawn),a
        ld hl,cathedral_domes
        jp draw_picture
.hall:  ld a,3
        ld (end_drawn),a
        ld hl,cathedral_hall
        call draw_picture
        ld de,19*256
        ld b,64                 ; the ground: rows 19 and 20, green
        ld c,4*8
        jp paint
.objects:
        ld a,(level)            ; the start level picks the object (as the NES's endings do)
.mod:   sub 5
        jr nc,.mod
        add a,5
        add a,a
        add a,a
        add a,a
        hl_at end_glyphs
        ex de,hl                ; DE = the glyph
        ld ix,end_x
        ld b,END_OBJECTS
        ld c,2                  ; the first object's row; each one 2 rows lower
.one:   ld a,(ix+0)
        cp (ix+END_OBJECTS)
        jr z,.nextobj
        push af
        ld a,(ix+END_OBJECTS)   ; off where it was
        cp 32
        call c,.erase
        pop af
        ld (ix+END_OBJECTS),a
        cp 32
        call c,.drawobj
.nextobj:  inc ix
        inc c
        inc c
        djnz .one
        ret
.erase: push de
        ld d,c
        ld e,a
        ld hl,block_glyphs      ; (8 empty rows)
        call put_pixels
        pop de
        ret
.drawobj:  push de
        ex de,hl
        ld d,c
        ld e,a
        call put_pixels
        call attr_addr
        ld a,(level)
        and 7
        or 41h                  ; bright, never black: the level's colour
        ld (hl),a
        pop de
        ret

; The objects, one per start level mod 5 (our drawings, not the NES's): a bird, a penguin, an
; airship, a UFO, a rocket.
end_glyphs:
        db $00,$00,$C3,$66,$3C,$18,$00,$00
        db $18,$3C,$5A,$7E,$7E,$3C,$24,$66
        db $00,$7E,$FF,$FF,$7E,$18,$00,$00
        db $00,$18,$3C,$FF,$DB,$FF,$66,$00
        db $18,$3C,$3C,$3C,$7E,$FF,$24,$00

; The ending's cathedral: onion domes over a hall, in half-cells (draw_picture), in two parts
; drawn in two frames.
cathedral_domes:
        db 13,15,46h,3,2,3,2
        db 14,9,42h,14,2,3,2,0,0,3,3,3,3,3,0,2,3,2
        db 15,8,45h,16,1,3,3,3,1,0,0,3,3,3,0,1,3,3,3,1
        db 0FFh
cathedral_hall:
        db 16,8,47h,17,2,3,3,3,2,2,3,3,3,3,3,2,3,3,3,2,2
        db 17,8,47h,17,3,3,1,3,3,3,1,3,3,3,1,3,3,3,1,3,3
        db 18,8,07h,17,3,3,2,3,3,3,2,3,3,3,2,3,3,3,2,3,3
        db 0FFh
