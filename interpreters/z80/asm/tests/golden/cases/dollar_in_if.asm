; `$` in an IF condition is the address of the statement it stands in (issue 29: it was the
; previous statement's address, so the first IF below was false; all three oracles say true).
        org 100h
        ld hl,0
        if $ = 103h
        defb 1
        else
        defb 2
        endif
        if $ - 104h
        defb 0EEh
        endif
        ld a,$ & 0FFh
