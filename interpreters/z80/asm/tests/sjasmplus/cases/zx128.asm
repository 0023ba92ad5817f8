; DEVICE ZXSPECTRUM128: eight 16K pages, slots 0-3 showing pages 7, 5, 2, 0; SLOT/PAGE/MMU map
; pages, SAVEBIN reads what is mapped, SAVESNA writes the 131,103-byte 128K snapshot (banks 5, 2
; and the paged one, PC, port 7FFDh, then the rest), SAVETAP a BASIC header.
        device zxspectrum128
        org 8000h
start:  di
        ld a,1
        jr start
        slot 3
        page 1
        org 0C000h
        db "page1"
        page 3
        org 0C000h
        db "page3"
        mmu 3, 4, 0C010h
        db "page4"
        mmu 1 2, 6
        org 4000h
        db "page6"
        org 6000h
        db "page7"
        mmu 1 2, 5
        page 0
        savesna "z128.sna",start
        savebin "p0.bin",0C000h,8
        page 1
        savebin "p1.bin",0C000h,8
        emptytap "basic.tap"
        savetap "basic.tap",BASIC,"loader",start,5
        savetap "basic.tap",BASIC,"run",start,5,10
        savetap "basic.tap",BASIC,"vars",start,5,20,3
