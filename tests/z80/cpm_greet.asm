; A CP/M program for the debugger's transcript test (tests/cpm_debug.rs): prints a greeting
; through BDOS 9, counts to three with a routine, and prints the count through BDOS 2.
BDOS    equ 5
        org $100
start:  ld de,hello
        call print
        ld b,3
again:  call bump
        djnz again
        ld a,(count)
        add a,'0'
        ld e,a
        ld c,2
        call BDOS
        ret                     ; to 0000h: the warm boot ends the program

; print: the $-terminated string at DE
print:  ld c,9
        call BDOS
        ret

; bump: adds one to count
bump:   ld hl,count
        inc (hl)
        ret

hello:  db "Hello from CP/M",13,10,"$"
count:  db 0
