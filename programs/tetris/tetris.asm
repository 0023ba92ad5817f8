; NES Tetris for the Z80 workbench machine at 60 Hz (issue #17): the NES game's rules, timings and
; quirks frame by frame, written from ../shared/reference/nes-tetris.md and the seed article
; (../shared/seeds/000_299c981f986b7560.txt), checked against the meta_nestris oracle's traces
; (docs/tetris.md). One frame = one frame interrupt: read the controller, run the game, draw.

WORKBENCH_HZ    equ 60          ; NTSC frames (the machine runs 58,333 T-states a frame)
PADPORT         equ 3Fh         ; the controller, read serially as the NES reads $4016
PAD_KEYS        equ 1           ; read_pad takes X, Z, Enter and Space as A, B, Start and Select:
                                ; `retro run --record` records them as those buttons
CONSOLEPORT     equ 0Fh
SAVE_DATA       equ 0Bh         ; the save area (docs/z80-machine.md): IN/OUT its next byte
SAVE_CONTROL    equ 09h         ; OUT 0: back to its start; OUT 1: keep what was written

; Buttons in the NES's order (the byte a serial read builds)
BTN_A           equ 80h
BTN_B           equ 40h
BTN_SELECT      equ 20h
BTN_START       equ 10h
BTN_UP          equ 08h
BTN_DOWN        equ 04h
BTN_LEFT        equ 02h
BTN_RIGHT       equ 01h

MENU_LEGAL      equ 0
MENU_TITLE      equ 1
MENU_GAMETYPE   equ 2
MENU_LEVEL      equ 3
MENU_NAME       equ 4           ; the high-score name entry (after a game)

; Play states, in the oracle's terms (its trace prints these names): the NES's playStates 1-5 and
; 8; 6 and 7 are the two frames of play_delay before the spawn.
PS_MOVE         equ 0
PS_LOCK         equ 1
PS_CHECK        equ 2
PS_ANIMATE      equ 3
PS_UPDATE       equ 4
PS_SPAWN        equ 5

GMS_PLAY        equ 0
GMS_START       equ 1
GMS_UNPAUSE     equ 2

        include "macros.asm"

        org 8000h
start:  di
        ld sp,0
        im 1
        call boot
        ei
main:   halt                    ; one pass per frame interrupt
        call read_pad
        call frame
        call render
        jr main

; boot: power-on state: the RNG from 8988h stepped by the NMIs before the legal screen shows
; (262), the legal screen's upload (267 frames) and its 255 skippable frames.
boot:   ld hl,8988h
        ld (rng),hl
        ld b,0
        call rng_steps          ; 256
        ld b,6
        call rng_steps
        ld a,2
        ld (frame_counter),a
        ld hl,267
        ld (delay),hl
        ld a,0FFh
        ld (legal_timer),a
        ld (shown_mode),a       ; (memory starts zero: a black screen; the first frame clears it)
        call hs_load            ; the high scores kept from earlier runs
        ld a,(printer_go)       ; retro run --printer: the sequence at printer_seq is printed
        or a
        ret z
        ld hl,printer_seq
        jp printer_start

; read_pad: the controller's 8 buttons, A first, into `pad` (the keyboard's X, Z, Enter and Space
; press A, B, Start and Select as well), and the new presses into `pressed`.
read_pad:
        ld a,1
        out (PADPORT),a         ; latch
        xor a
        out (PADPORT),a
        ld b,8
.bit:   in a,(PADPORT)
        rra
        rl c
        djnz .bit
        ld a,0FEh               ; the keyboard too: X = A, Z = B (CAPS SHIFT to V row)
        in a,(0FEh)
        cpl
        ld b,a
        bit 2,b
        jr z,.nox
        set 7,c
.nox:   bit 1,b
        jr z,.noz
        set 6,c
.noz:   ld a,0BFh               ; Enter = Start
        in a,(0FEh)
        rra
        jr c,.noent
        set 4,c
.noent: ld a,7Fh                ; Space = Select
        in a,(0FEh)
        rra
        jr c,.nosp
        set 5,c
.nosp:  ld a,c
        ld (pad),a
        ld a,(prev)
        cpl
        and c
        ld (pressed),a
        ret

frame:  ld a,(printer_on)
        or a
        jp nz,printer_frame
        ld a,(in_game)
        or a
        jp z,menu_frame
        jp game_frame

        include "menus.asm"
        include "play.asm"
        include "score.asm"
        include "ending.asm"
        include "highscores.asm"
        include "rng.asm"
        include "screen.asm"
        include "pieces.asm"
        include "printer.asm"
        include "font.asm"
        include "ram.asm"
