; Command-line names and include search: -DNAME=VALUE is a DEFINE, -DNAME alone defines it
; empty (IFDEF sees it); INCLUDE looks beside the including file, then in the directory sjasmplus
; was started in, then in each -I directory; <name> tries the -I directories first.
        org 8000h
        db SIZE, SIZE * 2
        ifdef DEBUG
        db 0DDh
        endif
        ifndef RELEASE
        db 0EEh
        endif
        include "consts.inc"
        include <lib.inc>
        db CONST, LIBV
