; Connect-4 win checks in the hackathon's style: GAMESTRUCT reached through IY + offsets.
	org 8000h
XSIZE:		equ 7
YSIZE:		equ 6
WINSIZE:	equ 4
BACKGROUNDCOLOR:	equ 0
P1COLOR:	equ 16
P2COLOR:	equ 48

GAMESTRUCT:
Level:		defb 0
CurrentPlayer:	defb 1
CurrentSlot:	defb 0
PointsP1:	defb 0
PointsP2:	defb 0
SlotColors:	defb BACKGROUNDCOLOR, P1COLOR, P2COLOR
PlayerChangeP:	defb 0
LastY:		defb $FF
pieceCount:	defb 0
Board:		ds XSIZE*YSIZE, 0

LEVELoff:	equ Level-GAMESTRUCT
CURRENTPoff:	equ CurrentPlayer-GAMESTRUCT
CURRENTSoff:	equ CurrentSlot-GAMESTRUCT
LASTYoff:	equ LastY-GAMESTRUCT
COUNToff:	equ pieceCount-GAMESTRUCT
BOARDoff:	equ Board-GAMESTRUCT

; slotPointer: B = X, C = Y -> HL = address of the slot
slotPointer:
	push de
	ld hl,Board
	ld a,c
	or a
	jr z,spAddX
	ld de,XSIZE
spRow:	add hl,de
	dec a
	jr nz,spRow
spAddX:	ld e,b
	ld d,0
	add hl,de
	pop de
	ret

; checkFullGrid: A = 0 if the top row has an empty slot
checkFullGrid:
	ld hl,Board
	ld b,XSIZE
cfgLoop:	ld a,(hl)
	or a
	ret z
	inc hl
	djnz cfgLoop
	ret

; checkHorizontalN: C = Y, E = player -> A = 0 if WINSIZE in a row, else -1
checkHorizontalN:
	ld d,0
	ld b,XSIZE-1
chLoop:	push bc
	call slotPointer
	pop bc
	ld a,(hl)
	cp e
	jr nz,chReset
	inc d
	ld a,d
	cp WINSIZE
	jr nc,chWin
	jr chNext
chReset:	ld d,0
chNext:	dec b
	jp p,chLoop
	ld a,-1
	ret
chWin:	xor a
	ret

; checkSemiDiagonal: B = X, C = Y, E = player, H = DX, L = DY -> A = count
checkSemiDiagonal:
	ld (iy+COUNToff),0
csdLoop:	ld a,b
	add a,h
	ld b,a
	cp XSIZE
	jr nc,csdDone
	ld a,c
	add a,l
	ld c,a
	cp YSIZE
	jr nc,csdDone
	push hl
	call slotPointer
	ld a,(hl)
	pop hl
	cp e
	jr nz,csdDone
	inc (iy+COUNToff)
	jr csdLoop
csdDone:	ld a,(iy+COUNToff)
	ret

; checkDiagonal: SD1 + SD2 + 1
checkDiagonal:
	push bc
	push hl
	call checkSemiDiagonal
	ld d,a
	pop hl
	pop bc
	ld a,h
	neg
	ld h,a
	ld a,l
	neg
	ld l,a
	call checkSemiDiagonal
	add a,d
	inc a
	ret

main:	ld iy,GAMESTRUCT
	ld (iy+CURRENTPoff),1
	ld a,(iy+LASTYoff)
	ld c,a
	ld e,(iy+CURRENTPoff)
	call checkHorizontalN
	or a
	jr z,won
	call checkFullGrid
	ret
won:	ld a,(iy+LEVELoff)
	inc a
	ld (iy+LEVELoff),a
	ret
