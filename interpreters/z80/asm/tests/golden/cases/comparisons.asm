; Comparison operators: pasmo gives -1 for true, z80asm gives 1.
	org 100h
	db 1<2, 2<1, 3>2, 2>3
	dw 1<2
	nop
