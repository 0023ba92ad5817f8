; `END main` names the entry point: the message table comes first at the ORG, so entering at
; the ORG would run the text as code. Prints a line and exits with status 3 (`other`: 4).
        org 8000h
msg:    db "END entry", 10, 0
main:   ld hl,msg
.next:  ld a,(hl)
        or a
        jr z,.done
        out (0Fh),a
        inc hl
        jr .next
.done:  ld a,3
        out (0Dh),a
other:  ld a,4
        out (0Dh),a
        end main
