; DEVICE ZXSPECTRUMNEXT and SAVENEX: 8K pages in eight slots (default 14, 15, 10, 11, 4, 5, 0,
; 1), MMU, and .nex files (V1.2 header, banks in the loader's order) made by OPEN, CORE, CFG,
; AUTO (the non-zero banks) and BANK (the ones named), closed by CLOSE or by the end of the source.
        DEVICE ZXSPECTRUMNEXT
        ORG $7E00
start:  ei : jr $
        ORG $C000
        db 1,2,3
        MMU 6 7, 20
        ORG $C000
        db 9
        MMU 0, 40, $0010
        db "page 40"
        SAVENEX OPEN "a.nex", start, $FFF0, 3
        SAVENEX CORE 2, 1, 5
        SAVENEX CFG 4, 1, 0, 1
        SAVENEX AUTO
        SAVENEX CLOSE
        SAVENEX OPEN "b.nex"
        SAVENEX BANK 5, 0, 1
        SAVENEX AUTO 6
