; `$` in IF, DUP/REPT counts, ASSERT and operands is the address of the statement it stands in
; (issue 29: IF and DUP saw the previous statement's address).
        org 100h
        ld hl,0
        if $ = 103h
        db 1
        else
        db 2
        endif
        dup $ - 104h + 2
        nop
        edup
        rept $ - 106h + 1
        db $ & 0FFh
        endr
        assert $ = 107h
        dw $
