; `$` in a REPT count is the address of the REPT statement (issue 29). z80asm has no REPT, pasmo no ASSERT.
        org 100h
        ld hl,0
        rept $ - 103h + 2
        nop
        endm
        if $ = 105h
        defb 1
        endif
        defb $ & 0FFh
