; Connect-4 for the retro workbench machine (ZX Spectrum 48K-style), in Z80 assembly.
;
; Built the way the "CONECTA-4 Z80 ASM HACKATHON" slides teach it (Arquitectura y Organizacion de
; Computadores; shared/seeds/003): the game's variables live in one structure, GAMESTRUCT, that
; the game keeps in IY and reads as IY+offset; the board is an XSIZE*YSIZE array whose row 0 is the
; top row; and the win check is made of the slides' routines: slotPointer, dropChecker,
; checkFullGrid, checkHorizontalN, checkVerticalN, checkSemiDiagonal, checkDiagonal,
; checkDiagonals and checkWIN, plus the slides' optional generalisation, checkWINgeneral, where one
; semi-diagonal routine serves all four directions.
;
; The board size and the line length are EQUs. Every routine works for other values (up to
; XSIZE, YSIZE <= 127, because X and Y are walked as signed bytes); to build another size, define
; them first and include this file:
;       XSIZE EQU 8
;       YSIZE EQU 7
;       WINSIZE EQU 5
;       INCLUDE "connect4.asm"
; The tests do exactly that (tests/connect4_routines.rs). The game's screen layout shrinks the
; slots to one attribute cell when the board does not fit with 2x2 slots.
;
; How to play, the keys and a debugger walkthrough: docs/connect4.md.

        IFNDEF XSIZE
XSIZE   EQU 7                   ; board columns
        ENDIF
        IFNDEF YSIZE
YSIZE   EQU 6                   ; board rows
        ENDIF
        IFNDEF WINSIZE
WINSIZE EQU 4                   ; pieces in a row needed to win
        ENDIF

        ASSERT XSIZE >= 1 && XSIZE <= 127 && YSIZE >= 1 && YSIZE <= 127
        ASSERT WINSIZE >= 2

; Colours are Spectrum attribute bytes: FLASH<<7 | BRIGHT<<6 | PAPER<<3 | INK. Only the paper
; (the cell's background) shows in the attribute-cell view.
BLACK           EQU 0
BLUE            EQU 1
RED             EQU 2
MAGENTA         EQU 3
GREEN           EQU 4
CYAN            EQU 5
YELLOW          EQU 6
WHITE           EQU 7
BRIGHT          EQU 64
FLASH           EQU 128
BACKGROUNDCOLOR EQU BLACK*8+WHITE               ; an empty slot: black hole
P1COLOR         EQU BRIGHT+RED*8+WHITE          ; player 1: red
P2COLOR         EQU BRIGHT+YELLOW*8+BLACK       ; player 2: yellow
BOARDCOLOR      EQU BLUE*8+WHITE                ; the board's frame
SCREENCOLOR     EQU BLACK*8+WHITE               ; everything else
TEXTCOLOR       EQU BLACK*8+WHITE+BRIGHT

        ORG 8000h

; ---------------------------------------------------------------------------------------------
; Entry: the game. The routines the slides name follow it, then the data.
; ---------------------------------------------------------------------------------------------
start:
        jp game

; =============================================================================================
; The slides' routines. Coordinates are board coordinates (X = column 0..XSIZE-1 from the left,
; Y = row 0..YSIZE-1 from the top), never screen cells. "Player" is CurrentPlayer in GAMESTRUCT.
; =============================================================================================

; slotPointer: the address of a board slot.
;   in:  B = X, C = Y
;   out: HL = Board + Y*XSIZE + X
;   clobbers: A, F (BC, DE, IX, IY kept)
slotPointer:
        push de
        ld hl,Board
        ld de,XSIZE
        ld a,c
        or a
        jr z,.column
.row:   add hl,de               ; one row down is XSIZE bytes further
        dec a
        jr nz,.row
.column:
        ld e,b                  ; D is still 0 (XSIZE < 256)
        add hl,de
        pop de
        ret

; dropChecker: where a piece dropped into column X lands (the lowest empty slot).
;   in:  B = X
;   out: carry clear: C = Y of that slot, HL = its address (slotPointer)
;        carry set: the column is full; C = FFh
;   clobbers: A, F (B, DE, IX, IY kept)
dropChecker:
        push de
        ld c,YSIZE-1            ; start at the bottom row and climb
        call slotPointer
        ld de,-XSIZE
.climb: ld a,(hl)
        or a                    ; empty? (OR also clears carry)
        jr z,.found
        add hl,de
        dec c
        jp p,.climb             ; down to row 0 included: the sign flag ends the loop
        scf                     ; C = FFh: nothing free in this column
.found: pop de
        ret

; checkFullGrid: is the board full? Pieces fall to the bottom, so the board is full exactly when
; the top row is, and the top row is the first XSIZE bytes of Board.
;   in:  IY = GAMESTRUCT (unused: the board is at a fixed address)
;   out: A = 0 if not full; A <> 0 (the last top-row slot, 1 or 2) if full
;   clobbers: B, HL, F
checkFullGrid:
        ld hl,Board
        ld b,XSIZE
.next:  ld a,(hl)
        or a
        ret z                   ; an empty slot: not full
        inc hl
        djnz .next
        ret

; checkHorizontalN: does row Y hold WINSIZE consecutive pieces of the player? The row is scanned
; from X = XSIZE-1 down to 0, 0 included, so the loop ends on the sign flag (JP P; JR cannot test it).
;   in:  C = Y, IY = GAMESTRUCT (player = CurrentPlayer); B (the new piece's X) is not needed
;   out: A = 0 if there are WINSIZE in a row, A = FFh (-1) if not
;   clobbers: F, DE, HL (BC kept)
checkHorizontalN:
        push bc
        ld e,(iy+CURRENTPoff)
        ld b,XSIZE-1
        call slotPointer        ; HL = the row's rightmost slot
        ld d,0                  ; D = length of the current run
.scan:  ld a,(hl)
        cp e
        jr nz,.broken
        inc d
        ld a,d
        cp WINSIZE
        jr nc,.won
        jr .left
.broken:
        ld d,0
.left:  dec hl
        dec b
        jp p,.scan
        pop bc
        ld a,-1
        ret
.won:   pop bc
        xor a
        ret

; checkVerticalN: does the new piece sit on top of WINSIZE-1 more of the player's pieces? The new
; piece is the highest in its column, so only the slots from Y downwards count, and when fewer than
; WINSIZE rows are left below (YSIZE-Y < WINSIZE) there is no line at all: return at once.
;   in:  B = X, C = Y of the new piece (the top of its column), IY = GAMESTRUCT
;   out: A = 0 if there are WINSIZE in a row, A = FFh (-1) if not
;   clobbers: F, DE, HL (BC kept)
checkVerticalN:
        ld a,YSIZE
        sub c
        cp WINSIZE
        jr c,.no                ; YSIZE-Y < WINSIZE
        call slotPointer
        ld e,(iy+CURRENTPoff)
        ld d,WINSIZE            ; D = slots still to check
        push bc
        ld bc,XSIZE
.down:  ld a,(hl)
        cp e
        jr nz,.broken2
        add hl,bc               ; one row down
        dec d
        jr nz,.down
        pop bc
        xor a
        ret
.broken2:
        pop bc
.no:    ld a,-1
        ret

; checkSemiDiagonal: how many of the player's pieces follow the new piece in direction (DX,DY):
; (X+DX,Y+DY), (X+2DX,Y+2DY), ... up to the first slot that is off the board, empty or the other
; player's. The new piece itself is not counted. The count is kept in pieceCount.
; The bounds tests are the slides' successive compares and jumps: X+DX = -1, X+DX = XSIZE,
; Y+DY = -1, Y+DY = YSIZE each leave the loop (DX and DY are -1, 0 or 1).
;   in:  B = X, C = Y, D = DX, E = DY, IY = GAMESTRUCT (player = CurrentPlayer)
;   out: A = pieceCount = the number of pieces
;   clobbers: F, HL (BC, DE kept)
checkSemiDiagonal:
        ld (iy+COUNToff),0
        push bc
.step:  ld a,b
        add a,d
        ld b,a                  ; X += DX
        cp -1
        jr z,.done
        cp XSIZE
        jr z,.done
        ld a,c
        add a,e
        ld c,a                  ; Y += DY
        cp -1
        jr z,.done
        cp YSIZE
        jr z,.done
        call slotPointer
        ld a,(hl)
        cp (iy+CURRENTPoff)
        jr nz,.done             ; empty or the other player's
        inc (iy+COUNToff)
        jr .step
.done:  pop bc
        ld a,(iy+COUNToff)
        ret

; checkDiagonal: the length of the player's line through the new piece along (DX,DY):
; SD1N = checkSemiDiagonal(DX,DY), SD2N = checkSemiDiagonal(-DX,-DY) (NEG negates), SD1N+SD2N+1.
;   in:  B = X, C = Y, D = DX, E = DY, IY = GAMESTRUCT
;   out: A = SD1N + SD2N + 1 (pieceCount = SD2N)
;   clobbers: F, HL (BC, DE kept)
checkDiagonal:
        call checkSemiDiagonal
        push af                 ; SD1N
        call negateDelta
        call checkSemiDiagonal
        ld l,a                  ; SD2N
        call negateDelta        ; DX, DY back as they came
        pop af
        add a,l
        inc a                   ; + the new piece
        ret

; negateDelta: D = -D, E = -E (the other half of a line). Clobbers A, F.
negateDelta:
        ld a,d
        neg
        ld d,a
        ld a,e
        neg
        ld e,a
        ret

; checkDiagonals: both diagonals through the new piece: (1,1)/(-1,-1), then, if that is shorter
; than WINSIZE, (1,-1)/(-1,1).
;   in:  B = X, C = Y, IY = GAMESTRUCT
;   out: A = 0 if either diagonal has WINSIZE in a row, A = FFh (-1) if not
;   clobbers: F, DE, HL (BC kept)
checkDiagonals:
        ld de,0101h             ; DX = 1, DY = 1
        call checkDiagonal
        cp WINSIZE
        jr nc,.won2
        ld e,-1                 ; DX = 1, DY = -1
        call checkDiagonal
        cp WINSIZE
        jr nc,.won2
        ld a,-1
        ret
.won2:   xor a
        ret

; checkWIN: has the player who just dropped a piece won? Called after every drop, before
; checkFullGrid: horizontal, then vertical, then the diagonals; the first line found ends it.
;   in:  IY = GAMESTRUCT: CurrentSlot = X and LastY = Y of the new piece, CurrentPlayer
;   out: A = 0 if CurrentPlayer has WINSIZE in a row through that piece, A = FFh (-1) if not
;   clobbers: F, BC, DE, HL; in GAMESTRUCT only pieceCount changes
checkWIN:
        ld b,(iy+CURRENTSoff)
        ld c,(iy+LASTYoff)
        call checkHorizontalN
        or a
        ret z
        call checkVerticalN
        or a
        ret z
        call checkDiagonals
        ret

; checkWINgeneral: the slides' generalisation. Horizontal is the line (1,0)/(-1,0) and vertical
; (0,1)/(0,-1), so checkDiagonal (through checkSemiDiagonal) checks all four directions.
; Same contract as checkWIN, and the same answer on every position.
;   in:  IY = GAMESTRUCT: CurrentSlot, LastY, CurrentPlayer
;   out: A = 0 if won, A = FFh (-1) if not
;   clobbers: F, BC, DE, HL; in GAMESTRUCT only pieceCount changes
checkWINgeneral:
        ld b,(iy+CURRENTSoff)
        ld c,(iy+LASTYoff)
        ld hl,Directions
.next2:  ld a,(hl)
        cp ENDDIRS
        jr z,.none
        ld d,a                  ; DX
        inc hl
        ld e,(hl)               ; DY
        inc hl
        push hl
        call checkDiagonal
        pop hl
        cp WINSIZE
        jr c,.next2
        xor a
        ret
.none:  ld a,-1
        ret

ENDDIRS EQU 80h
; (DX,DY) of one half of each line through a piece: horizontal, vertical, the two diagonals.
Directions:
        DEFB 1,0, 0,1, 1,1, 1,-1, ENDDIRS

; =============================================================================================
; The game's data: the slides' structure, read as IY+offset while the game runs.
; =============================================================================================
GAMESTRUCT:                             ; Game structure for indirect+offset addressing
Level:          DEFB 0                  ; Current level (here: the round, from 1)
CurrentPlayer:  DEFB 1                  ; Current player (0=None, 1=Player1, 2=Player2)
CurrentSlot:    DEFB 0                  ; Current slot selected (0 to XSIZE-1)
PointsP1:       DEFB 0                  ; Player 1 points
PointsP2:       DEFB 0                  ; Player 2 points
SlotColors:     DEFB BACKGROUNDCOLOR, P1COLOR, P2COLOR
PlayerChangeP:  DEFB 0                  ; Player Change Pending if <> 0
LastY:          DEFB 0FFh               ; Last inserted Y coordinate (FFh: none yet)
pieceCount:     DEFB 0                  ; Count of consecutive pieces
Board:          DS XSIZE*YSIZE, 0       ; Board slots (0=empty, 1=Player1, 2=Player2), row 0 on top

LEVELoff        EQU Level-GAMESTRUCT            ; Level counter offset
CURRENTPoff     EQU CurrentPlayer-GAMESTRUCT    ; Current player offset
CURRENTSoff     EQU CurrentSlot-GAMESTRUCT      ; Current slot offset
POINTSP1off     EQU PointsP1-GAMESTRUCT         ; Player 1 points offset
POINTSP2off     EQU PointsP2-GAMESTRUCT         ; Player 2 points offset
SLOTCOLoff      EQU SlotColors-GAMESTRUCT       ; Slot Colors 3 bytes
CPPENDINGoff    EQU PlayerChangeP-GAMESTRUCT    ; PlayerChange Pending offset
LASTYoff        EQU LastY-GAMESTRUCT            ; Last inserted Y offset
COUNToff        EQU pieceCount-GAMESTRUCT       ; Count for consecutive pieces in diagonal
BOARDoff        EQU Board-GAMESTRUCT            ; Board offset (start of board array)


; =============================================================================================
; The game. Everything below is ours (the slides leave the platform to the students): the
; workbench machine's screen, keyboard and ports (docs/z80-machine.md), a menu, rounds, points,
; and the computer opponent.
; =============================================================================================

; The machine.
ULAPORT         EQU 0FEh        ; IN: keyboard half-rows (A8-A15 select them); OUT: border colour
CONSOLEPORT     EQU 0Fh         ; OUT: one byte of text to the debug console (stdout, headless)
EXITPORT        EQU 0Dh         ; OUT: ends the run with the byte as exit status
BITMAP          EQU 4000h       ; 6144 bytes of pixels in the Spectrum's interleaved row order
ATTRS           EQU 5800h       ; 32x24 attribute cells
STACKTOP        EQU 0           ; the first push lands at FFFEh-FFFFh

; Screen layout: each slot is SLOTW x SLOTW attribute cells with a one-cell frame between slots,
; in a frame centred under a header (rows 0-1), a message row (2) and the cursor row.
        IF 3*XSIZE+1 <= 32 && 3*YSIZE+1 <= 19
SLOTW           EQU 2
        ELSE
SLOTW           EQU 1
        ENDIF
PITCH           EQU SLOTW+1
FRAMEW          EQU PITCH*XSIZE+1
FRAMEH          EQU PITCH*YSIZE+1
FRAMECOL        EQU (32-FRAMEW)/2
FRAMEROW        EQU 4
CURSORROW       EQU FRAMEROW-1
MSGROW          EQU 2
HINTROW         EQU 23
        ASSERT FRAMEW <= 32 && FRAMEROW+FRAMEH <= HINTROW      ; the board must fit the screen

; Actions, as readKeys reports them (one bit each).
KLEFT           EQU 1
KRIGHT          EQU 2
KDROP           EQU 4
KQUIT           EQU 8
KONE            EQU 16
KTWO            EQU 32

FALLFRAMES      EQU 2           ; frames a falling piece shows in each row
STEPFRAMES      EQU 4           ; frames between the computer's cursor steps
THINKFRAMES     EQU 10          ; frames before the computer moves

game:
        di
        ld sp,STACKTOP
        im 1                    ; the machine's built-in handler at 0038h: EI / RET
        ld iy,GAMESTRUCT        ; IY stays on GAMESTRUCT from here on
        xor a
        out (ULAPORT),a         ; black border
        ld hl,ConTitle
        call conPrint

; The menu: 1 = one player against the computer, 2 = two players, Q = quit.
menu:
        call clearScreen
        ld de,060Bh
        ld hl,TxtTitle
        call printAt
        ld de,0A08h
        ld hl,TxtOnePlayer
        call printAt
        ld de,0C08h
        ld hl,TxtTwoPlayers
        call printAt
        ld de,0E08h
        ld hl,TxtQuitKey
        call printAt
.wait:  call waitFrame
        call readKeys
        bit 3,a                 ; KQUIT
        jp nz,quit
        ld b,1
        bit 4,a                 ; KONE
        jr nz,.chosen
        inc b
        bit 5,a                 ; KTWO
        jr z,.wait
.chosen:
        ld a,b
        ld (Mode),a
        xor a
        ld (iy+LEVELoff),a
        ld (iy+POINTSP1off),a
        ld (iy+POINTSP2off),a

; A round: an empty board; player 1 starts the odd rounds, player 2 the even ones.
newRound:
        inc (iy+LEVELoff)
        ld a,(iy+LEVELoff)
        and 1
        ld a,1
        jr nz,.first
        inc a
.first: ld (iy+CURRENTPoff),a
        ld hl,Board
        ld de,Board+1
        ld bc,XSIZE*YSIZE-1
        ld (hl),0
        ldir
        ld (iy+LASTYoff),0FFh
        ld (iy+CPPENDINGoff),0
        ld (iy+CURRENTSoff),(XSIZE-1)/2
        call drawScreen
        ld hl,ConRound
        call conPrint
        ld a,(iy+LEVELoff)
        call numToText
        call conPrint
        ld a,':'
        out (CONSOLEPORT),a
        ld a,1
        ld (RoundOpen),a

; One turn: change player if a change is pending, then move and drop.
turn:
        ld a,(iy+CPPENDINGoff)
        or a
        jr z,.same
        ld (iy+CPPENDINGoff),0
        ld a,(iy+CURRENTPoff)
        xor 3                   ; 1 <-> 2
        ld (iy+CURRENTPoff),a
.same:  call drawCursor
        call drawTurn
        ld a,(Mode)
        dec a
        jr nz,.human            ; two players
        ld a,(iy+CURRENTPoff)
        cp 2
        jr z,.computer          ; one player: player 2 is the computer
.human: call waitFrame
        call readKeys
        bit 3,a                 ; KQUIT
        jp nz,quit
        bit 2,a                 ; KDROP
        jr nz,.drop
        bit 0,a                 ; KLEFT
        jr z,.notLeft
        ld a,(iy+CURRENTSoff)
        or a
        jr z,.human             ; already at the left edge
        dec (iy+CURRENTSoff)
        jr .moved
.notLeft:
        bit 1,a                 ; KRIGHT
        jr z,.human
        ld a,(iy+CURRENTSoff)
        cp XSIZE-1
        jr z,.human             ; already at the right edge
        inc (iy+CURRENTSoff)
.moved: call drawCursor
        jr .human

.computer:
        ld a,THINKFRAMES
        call waitFrames
        call computerMove
        ld (AiTarget),a
.walk:  ld a,(AiTarget)         ; the cursor walks to the chosen column
        cp (iy+CURRENTSoff)
        jr z,.drop
        jr c,.walkLeft
        inc (iy+CURRENTSoff)
        jr .walked
.walkLeft:
        dec (iy+CURRENTSoff)
.walked:
        call drawCursor
        ld a,STEPFRAMES
        call waitFrames
        jr .walk

.drop:  ld b,(iy+CURRENTSoff)
        call dropChecker
        jr c,.human             ; a full column takes no piece (the computer never picks one)
        call animateDrop
        call slotPointer
        ld a,(iy+CURRENTPoff)
        ld (hl),a               ; the piece lands
        ld (iy+LASTYoff),c
        call drawSlot
        ld a,' '
        out (CONSOLEPORT),a
        ld a,b
        inc a                   ; columns are numbered from 1 for people
        call numToText
        call conPrint
        ; The slides' order: a win first, then a full board.
        call checkWIN
        or a
        jr z,won
        call checkFullGrid
        or a
        jr nz,drawn
        ld (iy+CPPENDINGoff),1
        jp turn

won:    ld a,(iy+CURRENTPoff)
        ld hl,PointsP1
        dec a
        jr z,.p1
        inc hl
.p1:    inc (hl)
        call drawHeader
        call flashLine
        ld de,MSGROW*256+9
        ld hl,TxtPlayer
        call printAt
        ld a,(iy+CURRENTPoff)
        call printNum
        ld hl,TxtWins
        call printAt
        ld hl,ConPlayer
        call conPrint
        ld a,(iy+CURRENTPoff)
        call numToText
        call conPrint
        ld hl,ConWins
        call conPrint
        jr roundOver

drawn:  ld d,MSGROW
        call clearTextRow       ; the turn message is wider than DRAW!
        ld de,MSGROW*256+13
        ld hl,TxtDraw
        call printAt
        ld hl,ConDraw
        call conPrint

roundOver:
        xor a
        ld (RoundOpen),a
        ld hl,ConPoints1
        call conPrint
        ld a,(iy+POINTSP1off)
        call numToText
        call conPrint
        ld hl,ConPoints2
        call conPrint
        ld a,(iy+POINTSP2off)
        call numToText
        call conPrint
        ld a,10
        out (CONSOLEPORT),a
        ld d,HINTROW
        call clearTextRow
        ld de,HINTROW*256+4
        ld hl,TxtNextRound
        call printAt
.wait2:  call waitFrame
        call readKeys
        bit 3,a                 ; KQUIT
        jr nz,quit
        bit 2,a                 ; KDROP
        jp nz,newRound
        jr .wait2

quit:   ld a,(RoundOpen)
        or a
        jr z,.bye
        ld a,10                 ; end the round's line of moves
        out (CONSOLEPORT),a
.bye:   ld hl,ConBye
        call conPrint
        xor a
        out (EXITPORT),a        ; the run ends here, with status 0
        di
        halt                    ; (a machine without an exit port stops here)

; ---------------------------------------------------------------------------------------------
; The computer opponent. It looks one move ahead for both sides.
; ---------------------------------------------------------------------------------------------

; computerMove: the column the computer drops into for CurrentPlayer: a drop that wins if there
; is one; else one that takes the slot where the opponent's next drop would win; else the
; best-scoring drop, where a drop that lets the opponent win on top of it scores lowest and the
; others score for the lines they extend (3 per piece of its own, 2 per opponent piece they cut
; off) and for closeness to the centre.
;   in:  IY = GAMESTRUCT, CurrentPlayer = the computer; the board is not full
;   out: A = the column (0..XSIZE-1), never a full one
;   clobbers: F, BC, DE, HL; GAMESTRUCT and the board are left as they were, except pieceCount
computerMove:
        ld a,(iy+CURRENTSoff)
        ld (AiSaveSlot),a
        ld a,(iy+LASTYoff)
        ld (AiSaveY),a
        call aiFindWin          ; 1. win now
        cp 0FFh
        jr nz,.done2
        call aiSwapPlayer       ; 2. block the opponent's win
        call aiFindWin
        call aiSwapPlayer
        cp 0FFh
        jr nz,.done2
        call aiBestColumn       ; 3. the best score
.done2:  push af
        ld a,(AiSaveSlot)
        ld (iy+CURRENTSoff),a
        ld a,(AiSaveY)
        ld (iy+LASTYoff),a
        pop af
        ret

; aiSwapPlayer: CurrentPlayer = 3 - CurrentPlayer. Keeps A; clobbers F.
aiSwapPlayer:
        push af
        ld a,(iy+CURRENTPoff)
        xor 3
        ld (iy+CURRENTPoff),a
        pop af
        ret

; aiFindWin: the first column where CurrentPlayer's drop wins.
;   out: A = the column, or FFh if there is none; clobbers F, BC, DE, HL, CurrentSlot, LastY
aiFindWin:
        ld b,0
.column2:
        call aiWinsAt
        ld a,b
        ret z
        inc b
        cp XSIZE-1
        jr c,.column2
        ld a,0FFh
        ret

; aiWinsAt: would CurrentPlayer's piece dropped into column B win?
;   in:  B = X;  out: Z if it wins, NZ if not or the column is full; B kept
;   clobbers: A, F, C, DE, HL, CurrentSlot, LastY
aiWinsAt:
        call dropChecker
        jr nc,aiWinsIn
        or 1                    ; a full column: NZ
        ret

; aiBestColumn: the column with the best aiScore (the first of equals).
;   out: A = the column; clobbers F, BC, DE, HL, CurrentSlot, LastY
aiBestColumn:
        xor a
        ld (AiBestScore),a
        ld (AiBest),a
        ld b,0
.column3:
        call aiScore
        ld hl,AiBestScore
        cp (hl)
        jr c,.next3
        jr z,.next3
        ld (hl),a
        ld a,b
        ld (AiBest),a
.next3:  inc b
        ld a,b
        cp XSIZE
        jr c,.column3
        ld a,(AiBest)
        ret

; aiScore: how good a drop into column B is for CurrentPlayer: 0 if the column is full, 1 if the
; opponent could then win by dropping on top of it, otherwise 2 + 3 * the longest line of its own
; it would make + 2 * the longest opponent line it would cut + closeness to the centre.
;   in:  B = X;  out: A = the score; B kept
;   clobbers: F, C, DE, HL, CurrentSlot, LastY
aiScore:
        call dropChecker
        jr nc,.room
        xor a
        ret
.room:  ld a,c
        or a
        jr z,.safe              ; the top row: nothing goes on top
        ld a,(iy+CURRENTPoff)
        ld (hl),a               ; our piece, for now
        push hl
        dec c                   ; the slot above it
        call aiSwapPlayer
        call aiWinsAbove
        call aiSwapPlayer
        pop hl
        ld (hl),0
        inc c
        or a                    ; A = checkWIN's answer for the opponent
        jr nz,.safe
        ld a,1                  ; it hands the opponent a win
        ret
.safe:  call longestLine
        ld e,a
        add a,a
        add a,e
        ld (AiTmp),a            ; 3 * our line
        call aiSwapPlayer
        call longestLine
        call aiSwapPlayer
        add a,a
        ld hl,AiTmp
        add a,(hl)
        ld (hl),a               ; + 2 * their line
        ld a,b
        sub (XSIZE-1)/2
        jp p,.right
        neg
.right: ld e,a                  ; E = distance from the centre column
        ld a,XSIZE+2
        sub e
        add a,(hl)
        ret

; aiWinsAbove: would CurrentPlayer's piece in slot (B,C) win (the slot above a piece just put in)?
aiWinsAbove:
        call slotPointer
        ; fall through
; aiWinsIn: would CurrentPlayer's piece in slot (B,C), at HL, win? The piece goes in for
; checkWIN and comes out again.
;   out: A = 0 and Z if it wins, A = FFh and NZ if not; BC kept
;   clobbers: F, DE, HL, CurrentSlot, LastY
aiWinsIn:
        ld a,(iy+CURRENTPoff)
        ld (hl),a
        ld (iy+CURRENTSoff),b
        ld (iy+LASTYoff),c
        push hl
        push bc
        call checkWIN
        pop bc
        pop hl
        ld (hl),0
        or a
        ret

; longestLine: the longest line of CurrentPlayer's pieces through (X,Y), counting (X,Y) itself
; (which need not hold a piece), over the four directions.
;   in:  B = X, C = Y, IY = GAMESTRUCT
;   out: A = its length, DE = its direction (D = DX, E = DY); pieceCount as checkDiagonal leaves it
;   clobbers: F, HL (BC kept)
longestLine:
        xor a
        ld (LongLen),a
        ld hl,Directions
.next4:  ld a,(hl)
        cp ENDDIRS
        jr z,.done3
        ld d,a
        inc hl
        ld e,(hl)
        inc hl
        push hl
        call checkDiagonal
        ld hl,LongLen
        cp (hl)
        jr c,.shorter
        jr z,.shorter
        ld (hl),a
        ld (LongDir),de
.shorter:
        pop hl
        jr .next4
.done3:  ld de,(LongDir)
        ld a,(LongLen)
        ret

; ---------------------------------------------------------------------------------------------
; Drawing.
; ---------------------------------------------------------------------------------------------

; flashLine: after a win, sets FLASH on the winning line's slots (the machine swaps their ink
; and paper twice a second).
;   in:  IY = GAMESTRUCT with the winning piece in CurrentSlot, LastY, CurrentPlayer
;   clobbers: AF, BC, DE, HL
flashLine:
        ld b,(iy+CURRENTSoff)
        ld c,(iy+LASTYoff)
        call longestLine
        push af                 ; the line's length
        call checkDiagonal      ; pieceCount = its pieces in direction (-DX,-DY)
        pop af
        ld h,a                  ; H = the line's length
        ld l,(iy+COUNToff)
.back:  ld a,l                  ; walk to that end of the line
        or a
        jr z,.mark
        ld a,b
        sub d
        ld b,a
        ld a,c
        sub e
        ld c,a
        dec l
        jr .back
.mark:  push hl
        push de
        call slotPointer
        ld a,(hl)
        call slotColour
        or FLASH
        call paintAt
        pop de
        pop hl
        ld a,b
        add a,d
        ld b,a
        ld a,c
        add a,e
        ld c,a
        dec h
        jr nz,.mark
        ret

; drawScreen: the whole screen for a round: header, board, cursor, key hints. Clobbers all but IY.
drawScreen:
        call clearScreen
        call drawHeader
        call drawBoard
        call drawCursor
        ld de,HINTROW*256+2
        ld hl,TxtKeys
        jp printAt

; drawHeader: "CONNECT-4  ROUND n" and both players' points, the labels in their colours.
;   clobbers: AF, BC, DE, HL
drawHeader:
        ld de,0001h
        ld hl,TxtTitle
        call printAt
        ld de,0014h
        ld hl,TxtRound
        call printAt
        ld a,(iy+LEVELoff)
        call printNum
        ld de,0101h
        ld hl,TxtP1
        call printAt
        ld a,(iy+POINTSP1off)
        call printNum
        ld de,0114h
        ld hl,TxtP2
        call printAt
        ld a,(iy+POINTSP2off)
        call printNum
        ld de,0101h
        ld a,1
        call .label
        ld de,0114h
        ld a,2
.label: push de
        call slotColour
        pop de
        push af
        call attrAddr
        pop af
        ld (hl),a
        inc hl
        ld (hl),a
        ret

; drawBoard: the frame and every slot. Clobbers AF, BC, DE, HL.
drawBoard:
        ld d,FRAMEROW
        ld b,FRAMEH
.row2:   push bc
        ld e,FRAMECOL
        call attrAddr
        ld b,FRAMEW
.cell:  ld (hl),BOARDCOLOR
        inc hl
        djnz .cell
        pop bc
        inc d
        djnz .row2
        ld c,YSIZE-1
.slotY: ld b,XSIZE-1
.slotX: call drawSlot
        dec b
        jp p,.slotX
        dec c
        jp p,.slotY
        ret

; drawSlot: paints slot (B,C) in the colour of what it holds (SlotColors). Keeps BC.
;   clobbers: AF, DE, HL
drawSlot:
        call slotPointer
        ld a,(hl)
        call slotColour
        ; fall through
; paintAt: paints slot (B,C) with attribute A. Keeps BC; clobbers AF, DE, HL.
paintAt:
        push af
        call slotAttr
        pop af
        ld (hl),a
        IF SLOTW == 2
        inc hl
        ld (hl),a
        ld de,31
        add hl,de
        ld (hl),a
        inc hl
        ld (hl),a
        ENDIF
        ret

; slotColour: A = SlotColors[A] (0 empty, 1 or 2 a player), read through IY. Clobbers F, HL.
slotColour:
        push de
        push iy
        pop hl
        ld de,SLOTCOLoff
        add hl,de
        ld e,a
        ld d,0
        add hl,de
        ld a,(hl)
        pop de
        ret

; slotAttr: HL = the attribute address of slot (B,C)'s top-left cell. Keeps BC, DE; clobbers AF.
slotAttr:
        push de
        ld a,c
        call timesPitch
        add a,FRAMEROW+1
        ld d,a
        ld a,b
        call timesPitch
        add a,FRAMECOL+1
        ld e,a
        call attrAddr
        pop de
        ret

; timesPitch: A = A * PITCH. Clobbers F.
timesPitch:
        IF PITCH == 3
        push bc
        ld b,a
        add a,a
        add a,b
        pop bc
        ELSE
        add a,a
        ENDIF
        ret

; drawCursor: the cursor row, with the current player's colour over the current column.
;   clobbers: AF, B, DE, HL
drawCursor:
        ld de,CURSORROW*256
        call attrAddr
        ld b,32
.clear: ld (hl),SCREENCOLOR
        inc hl
        djnz .clear
        ld a,(iy+CURRENTSoff)
        call timesPitch
        add a,FRAMECOL+1
        ld e,a
        call attrAddr
        ld a,(iy+CURRENTPoff)
        push hl
        call slotColour
        pop hl
        ld (hl),a
        IF SLOTW == 2
        inc hl
        ld (hl),a
        ENDIF
        ret

; animateDrop: the current player's piece falls down column B to row C, FALLFRAMES frames a row.
;   in:  B = X, C = the row it lands in;  keeps BC; clobbers AF, DE, HL
animateDrop:
        push bc
        ld a,c
        ld (FallTo),a
        ld c,0
.fall:  ld a,(FallTo)
        cp c
        jr z,.done4
        ld a,(iy+CURRENTPoff)
        call slotColour
        call paintAt
        ld a,FALLFRAMES
        call waitFrames
        xor a
        call slotColour
        call paintAt
        inc c
        jr .fall
.done4:  pop bc
        ret

; clearScreen: blank pixels, SCREENCOLOR everywhere. Clobbers AF, BC, DE, HL.
clearScreen:
        ld hl,BITMAP
        ld de,BITMAP+1
        ld bc,6143
        ld (hl),0
        ldir
        ld hl,ATTRS
        ld de,ATTRS+1
        ld bc,767
        ld (hl),SCREENCOLOR
        ldir
        ret

; clearTextRow: blanks the pixels of character row D. Clobbers AF, BC, E, HL.
clearTextRow:
        ld e,0
        call bitmapAddr
        ld c,8
.line:  push hl
        ld b,32
.byte:  ld (hl),0
        inc hl
        djnz .byte
        pop hl
        inc h                   ; the next pixel line of a character row is 256 bytes on
        dec c
        jr nz,.line
        ret

; attrAddr: HL = ATTRS + D*32 + E (D = character row, E = column). Clobbers AF.
attrAddr:
        ld l,d
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        add hl,hl
        ld a,l
        or e
        ld l,a
        ld a,h
        add a,HIGH ATTRS
        ld h,a
        ret

; bitmapAddr: HL = the top pixel line of character cell (D,E) in the Spectrum's layout:
; 010 R4 R3 000 / R2 R1 R0 C4..C0 (R = row D, C = column E). Clobbers AF.
bitmapAddr:
        ld a,d
        and 18h
        or HIGH BITMAP
        ld h,a
        ld a,d
        and 7
        rrca
        rrca
        rrca
        or e
        ld l,a
        ret

; printAt: the 0-terminated text at HL at row D, column E onwards (E ends after it); its cells
; get TEXTCOLOR. Characters ' ' to 'Z'. Clobbers AF, BC, HL.
printAt:
.next5:  ld a,(hl)
        or a
        ret z
        push hl
        call putChar
        pop hl
        inc hl
        inc e
        jr .next5

; putChar: character A at row D, column E. Keeps DE; clobbers AF, BC, HL.
putChar:
        sub ' '
        ld l,a
        ld h,0
        add hl,hl
        add hl,hl
        add hl,hl
        ld bc,Font
        add hl,bc               ; HL = the glyph's 8 bytes
        push de
        push hl
        call bitmapAddr
        ex de,hl                ; DE = the screen
        pop hl
        ld b,8
.line2:  ld a,(hl)
        ld (de),a
        inc hl
        inc d
        djnz .line2
        pop de
        call attrAddr
        ld (hl),TEXTCOLOR
        ret

; printNum: A (0-255) in decimal at row D, column E onwards. Clobbers AF, BC, HL.
printNum:
        call numToText
        jr printAt

; drawTurn: the message row says whose move it is: YOUR MOVE, or COMPUTER... while the computer
; thinks and walks its cursor; in a two-player game P1: YOUR MOVE or P2: YOUR MOVE. The texts
; lie within the columns PLAYER n WINS! covers. Clobbers AF, BC, DE, HL.
drawTurn:
        ld d,MSGROW
        call clearTextRow
        ld a,(Mode)
        dec a
        jr nz,.two
        ld de,MSGROW*256+11
        ld hl,TxtYourMove
        ld a,(iy+CURRENTPoff)
        cp 2
        jr nz,printAt
        ld de,MSGROW*256+10
        ld hl,TxtComputer
        jr printAt
.two:   ld de,MSGROW*256+10
        ld hl,TxtP1
        ld a,(iy+CURRENTPoff)
        dec a
        jr z,.player
        ld hl,TxtP2
.player:
        call printAt
        dec e                   ; over TxtPn's space: "P1: YOUR MOVE"
        ld hl,TxtColonMove
        jr printAt

; numToText: HL = NumBuf holding A (0-255) in decimal, no leading zeros, 0-terminated.
;   clobbers: AF, BC (DE kept)
numToText:
        push de
        ld hl,NumBuf
        ld c,0                  ; C <> 0 once a digit is written
        ld b,100
        call .place
        ld b,10
        call .place
        add a,'0'
        ld (hl),a
        inc hl
        ld (hl),0
        ld hl,NumBuf
        pop de
        ret
.place: ld d,'0'                ; D = this place's digit, E = the rest
.count: cp b
        jr c,.got
        sub b
        inc d
        jr .count
.got:   ld e,a
        ld a,d
        cp '0'
        jr nz,.write
        inc c
        dec c
        jr z,.skip              ; a leading zero
.write: ld (hl),d
        inc hl
        ld c,1
.skip:  ld a,e
        ret

; conPrint: the 0-terminated text at HL to the debug console. Clobbers AF, HL.
conPrint:
        ld a,(hl)
        or a
        ret z
        out (CONSOLEPORT),a
        inc hl
        jr conPrint

; ---------------------------------------------------------------------------------------------
; Keys and time.
; ---------------------------------------------------------------------------------------------

; waitFrame: sleeps until the next frame interrupt (50 a second). Clobbers nothing.
waitFrame:
        ei
        halt
        ret

; waitFrames: A frames. Clobbers AF.
waitFrames:
        push bc
        ld b,a
.frame: call waitFrame
        djnz .frame
        pop bc
        ret

; readKeys: the actions whose keys went down since the last call (KeyMap lists the keys;
; BREAK, CAPS SHIFT + SPACE, the terminal's Escape, quits instead of dropping).
;   out: A = KLEFT | KRIGHT | KDROP | KQUIT | KONE | KTWO bits; clobbers F, BC, DE, HL
readKeys:
        ld hl,KeyMap
        ld d,0                  ; D = actions held now
.key:   ld a,(hl)               ; the half-row's selector, 0 ends the map
        or a
        jr z,.break
        inc hl
        in a,(ULAPORT)
        and (hl)                ; 0: the key is down
        inc hl
        jr nz,.up
        ld a,d
        or (hl)
        ld d,a
.up:    inc hl
        jr .key
.break: ld a,0FEh
        in a,(ULAPORT)
        rra                     ; CAPS SHIFT (0 = down) into carry
        jr c,.edges
        ld a,7Fh
        in a,(ULAPORT)
        rra                     ; SPACE
        jr c,.edges
        ld a,d
        and 0FFh-KDROP
        or KQUIT
        ld d,a
.edges: ld a,(KeysHeld)
        cpl
        and d                   ; down now and not before
        ld e,a
        ld a,d
        ld (KeysHeld),a
        ld a,e
        ret

; Half-row selector (the high address byte), the key's bit, the action.
KeyMap:
        DEFB 0DFh,02h,KLEFT     ; O
        DEFB 0F7h,10h,KLEFT     ; 5 (with CAPS SHIFT: cursor left, the terminal's Left)
        DEFB 0DFh,01h,KRIGHT    ; P
        DEFB 0EFh,04h,KRIGHT    ; 8 (cursor right)
        DEFB 7Fh,01h,KDROP      ; SPACE
        DEFB 0BFh,01h,KDROP     ; ENTER
        DEFB 0EFh,10h,KDROP     ; 6 (cursor down)
        DEFB 0FBh,01h,KQUIT     ; Q
        DEFB 0F7h,01h,KONE      ; 1
        DEFB 0F7h,02h,KTWO      ; 2
        DEFB 0

; ---------------------------------------------------------------------------------------------
; Texts and the game's other variables.
; ---------------------------------------------------------------------------------------------
TxtTitle:       DEFM "CONNECT-4",0
TxtOnePlayer:   DEFM "1  ONE PLAYER",0
TxtTwoPlayers:  DEFM "2  TWO PLAYERS",0
TxtQuitKey:     DEFM "Q  QUIT",0
TxtRound:       DEFM "ROUND ",0
TxtP1:          DEFM "P1 ",0
TxtP2:          DEFM "P2 ",0
TxtKeys:        DEFM "O P MOVE  SPACE DROP  Q QUIT",0
TxtPlayer:      DEFM "PLAYER ",0
TxtWins:        DEFM " WINS!",0
TxtDraw:        DEFM "DRAW!",0
TxtYourMove:    DEFM "YOUR MOVE",0
TxtComputer:    DEFM "COMPUTER...",0
TxtColonMove:   DEFM ": YOUR MOVE",0
TxtNextRound:   DEFM "SPACE NEXT ROUND  Q QUIT",0
ConTitle:       DEFM "Connect-4",10,0
ConRound:       DEFM "Round ",0
ConPlayer:      DEFM 10,"Player ",0
ConWins:        DEFM " wins.",0
ConDraw:        DEFM 10,"Draw.",0
ConPoints1:     DEFM " Points: P1 ",0
ConPoints2:     DEFM ", P2 ",0
ConBye:         DEFM "Bye.",10,0

Mode:           DEFB 0          ; 1 = one player (the computer is player 2), 2 = two players
KeysHeld:       DEFB 0          ; the actions held at the last readKeys
RoundOpen:      DEFB 0          ; <> 0 while a round's line of moves is open on the console
FallTo:         DEFB 0          ; animateDrop's landing row
NumBuf:         DS 4            ; numToText's digits
AiTarget:       DEFB 0          ; the column the computer walks its cursor to
AiSaveSlot:     DEFB 0          ; CurrentSlot and LastY, kept while the computer tries drops
AiSaveY:        DEFB 0
AiBest:         DEFB 0          ; aiBestColumn's best column and score so far
AiBestScore:    DEFB 0
AiTmp:          DEFB 0
LongLen:        DEFB 0          ; longestLine's longest line and its direction
LongDir:        DEFW 0

; The characters ' ' to 'Z', 8 bytes each (top line first, bit 7 the leftmost pixel): the
; workbench's shared 8x8 font (the public-domain font8x8 basic set), so the debugger's screen view
; and the text screen dumps read the game's texts back.
Font:
        DEFB 00h,00h,00h,00h,00h,00h,00h,00h   ; space
        DEFB 18h,3Ch,3Ch,18h,18h,00h,18h,00h   ; !
        DEFB 6Ch,6Ch,00h,00h,00h,00h,00h,00h   ; "
        DEFB 6Ch,6Ch,0FEh,6Ch,0FEh,6Ch,6Ch,00h   ; #
        DEFB 30h,7Ch,0C0h,78h,0Ch,0F8h,30h,00h   ; $
        DEFB 00h,0C6h,0CCh,18h,30h,66h,0C6h,00h   ; %
        DEFB 38h,6Ch,38h,76h,0DCh,0CCh,76h,00h   ; &
        DEFB 60h,60h,0C0h,00h,00h,00h,00h,00h   ; '
        DEFB 18h,30h,60h,60h,60h,30h,18h,00h   ; (
        DEFB 60h,30h,18h,18h,18h,30h,60h,00h   ; )
        DEFB 00h,66h,3Ch,0FFh,3Ch,66h,00h,00h   ; *
        DEFB 00h,30h,30h,0FCh,30h,30h,00h,00h   ; +
        DEFB 00h,00h,00h,00h,00h,30h,30h,60h   ; ,
        DEFB 00h,00h,00h,0FCh,00h,00h,00h,00h   ; -
        DEFB 00h,00h,00h,00h,00h,30h,30h,00h   ; .
        DEFB 06h,0Ch,18h,30h,60h,0C0h,80h,00h   ; /
        DEFB 7Ch,0C6h,0CEh,0DEh,0F6h,0E6h,7Ch,00h   ; 0
        DEFB 30h,70h,30h,30h,30h,30h,0FCh,00h   ; 1
        DEFB 78h,0CCh,0Ch,38h,60h,0CCh,0FCh,00h   ; 2
        DEFB 78h,0CCh,0Ch,38h,0Ch,0CCh,78h,00h   ; 3
        DEFB 1Ch,3Ch,6Ch,0CCh,0FEh,0Ch,1Eh,00h   ; 4
        DEFB 0FCh,0C0h,0F8h,0Ch,0Ch,0CCh,78h,00h   ; 5
        DEFB 38h,60h,0C0h,0F8h,0CCh,0CCh,78h,00h   ; 6
        DEFB 0FCh,0CCh,0Ch,18h,30h,30h,30h,00h   ; 7
        DEFB 78h,0CCh,0CCh,78h,0CCh,0CCh,78h,00h   ; 8
        DEFB 78h,0CCh,0CCh,7Ch,0Ch,18h,70h,00h   ; 9
        DEFB 00h,30h,30h,00h,00h,30h,30h,00h   ; :
        DEFB 00h,30h,30h,00h,00h,30h,30h,60h   ; ;
        DEFB 18h,30h,60h,0C0h,60h,30h,18h,00h   ; <
        DEFB 00h,00h,0FCh,00h,00h,0FCh,00h,00h   ; =
        DEFB 60h,30h,18h,0Ch,18h,30h,60h,00h   ; >
        DEFB 78h,0CCh,0Ch,18h,30h,00h,30h,00h   ; ?
        DEFB 7Ch,0C6h,0DEh,0DEh,0DEh,0C0h,78h,00h   ; @
        DEFB 30h,78h,0CCh,0CCh,0FCh,0CCh,0CCh,00h   ; A
        DEFB 0FCh,66h,66h,7Ch,66h,66h,0FCh,00h   ; B
        DEFB 3Ch,66h,0C0h,0C0h,0C0h,66h,3Ch,00h   ; C
        DEFB 0F8h,6Ch,66h,66h,66h,6Ch,0F8h,00h   ; D
        DEFB 0FEh,62h,68h,78h,68h,62h,0FEh,00h   ; E
        DEFB 0FEh,62h,68h,78h,68h,60h,0F0h,00h   ; F
        DEFB 3Ch,66h,0C0h,0C0h,0CEh,66h,3Eh,00h   ; G
        DEFB 0CCh,0CCh,0CCh,0FCh,0CCh,0CCh,0CCh,00h   ; H
        DEFB 78h,30h,30h,30h,30h,30h,78h,00h   ; I
        DEFB 1Eh,0Ch,0Ch,0Ch,0CCh,0CCh,78h,00h   ; J
        DEFB 0E6h,66h,6Ch,78h,6Ch,66h,0E6h,00h   ; K
        DEFB 0F0h,60h,60h,60h,62h,66h,0FEh,00h   ; L
        DEFB 0C6h,0EEh,0FEh,0FEh,0D6h,0C6h,0C6h,00h   ; M
        DEFB 0C6h,0E6h,0F6h,0DEh,0CEh,0C6h,0C6h,00h   ; N
        DEFB 38h,6Ch,0C6h,0C6h,0C6h,6Ch,38h,00h   ; O
        DEFB 0FCh,66h,66h,7Ch,60h,60h,0F0h,00h   ; P
        DEFB 78h,0CCh,0CCh,0CCh,0DCh,78h,1Ch,00h   ; Q
        DEFB 0FCh,66h,66h,7Ch,6Ch,66h,0E6h,00h   ; R
        DEFB 78h,0CCh,0E0h,70h,1Ch,0CCh,78h,00h   ; S
        DEFB 0FCh,0B4h,30h,30h,30h,30h,78h,00h   ; T
        DEFB 0CCh,0CCh,0CCh,0CCh,0CCh,0CCh,0FCh,00h   ; U
        DEFB 0CCh,0CCh,0CCh,0CCh,0CCh,78h,30h,00h   ; V
        DEFB 0C6h,0C6h,0C6h,0D6h,0FEh,0EEh,0C6h,00h   ; W
        DEFB 0C6h,0C6h,6Ch,38h,38h,6Ch,0C6h,00h   ; X
        DEFB 0CCh,0CCh,0CCh,78h,30h,30h,78h,00h   ; Y
        DEFB 0FEh,0C6h,8Ch,18h,32h,66h,0FEh,00h   ; Z
