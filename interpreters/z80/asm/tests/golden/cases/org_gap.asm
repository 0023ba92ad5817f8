; Two ORGs with a gap: pasmo --bin fills the gap with zeros, z80asm concatenates. retro follows
; pasmo (the image is what the Z80 sees in memory).
	org 100h
	nop
	org 110h
	ld a,1
