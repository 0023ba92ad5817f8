//! The BDOS file functions on a host directory, with test programs written in assembly.

mod common;

use common::{program, run_in};
use retro_z80_cpm::{CpmLimits, CpmMachine};

#[test]
fn make_write_close_then_open_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    // Make OUT.TXT, write two records (the DMA buffer filled with 'A' then 'B'), close; then open
    // it again and read three times: OK, OK, end of file. Prints each result code in hex.
    let prog = program(
        "        ld hl,name\n        call setfcb\n\
         ld c,22\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld hl,0080h\n        ld (hl),'A'\n        ld de,0081h\n        ld bc,127\n        ldir\n\
         ld c,21\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld hl,0080h\n        ld (hl),'B'\n        ld de,0081h\n        ld bc,127\n        ldir\n\
         ld c,21\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld c,16\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld a,' '\n        call chr\n\
         ld hl,name\n        call setfcb\n\
         ld c,15\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld a,(080Fh)\n        call hex\n\
         ld c,20\n        ld de,0800h\n        call bdos\n        call hex\n        ld a,(0080h)\n        call chr\n\
         ld c,20\n        ld de,0800h\n        call bdos\n        call hex\n        ld a,(0080h)\n        call chr\n\
         ld c,20\n        ld de,0800h\n        call bdos\n        call hex\n\
         jp 0\n\
name:   db 'OUT     TXT'",
    );
    let out = run_in(dir.path(), &prog, &[]);
    // make 00, write 00 00, close 00; open 00 with RC=02, read 00 'A', 00 'B', then 01 (EOF).
    assert_eq!(out, "00000000 000200A00B01");
    let bytes = std::fs::read(dir.path().join("OUT.TXT")).unwrap();
    assert_eq!(bytes.len(), 256);
    assert!(bytes[..128].iter().all(|&b| b == b'A') && bytes[128..].iter().all(|&b| b == b'B'));
}

#[test]
fn search_delete_rename_size_and_random_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("one.bbc"), vec![b'1'; 300]).unwrap();
    std::fs::write(dir.path().join("TWO.BBC"), b"2").unwrap();
    std::fs::write(dir.path().join("three.txt"), b"3").unwrap();
    // Search *.BBC and print each name from the directory record in the DMA buffer (the entry at
    // 32 x the returned code, as DIR finds it); size of ONE.BBC; random read of its
    // record 2 (the third: '1' x 44 then ^Z padding); rename TWO.BBC to NEW.BBC; delete *.TXT.
    let prog = program(
        "        ld hl,pat\n        call setfcb\n\
         ld c,17\n        ld de,0800h\nnext:   call bdos\n        cp 0FFh\n        jr z,done\n\
         rrca\n        rrca\n        rrca\n        add a,81h\n        ld l,a\n        ld h,0\n        ld b,11\npname:  ld a,(hl)\n        call chr\n        inc hl\n        djnz pname\n\
         ld a,' '\n        call chr\n        ld c,18\n        jr next\n\
done:   ld hl,one\n        call setfcb\n        ld c,35\n        ld de,0800h\n        call bdos\n\
         call hex\n        ld a,(0821h)\n        call hex\n\
         ld a,2\n        ld (0821h),a\n        ld c,15\n        ld de,0800h\n        call bdos\n\
         ld c,33\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld a,(0080h+43)\n        call chr\n        ld a,(0080h+44)\n        call hex\n\
         ld hl,two\n        call setfcb\n        ld hl,new\n        ld de,0811h\n        ld bc,11\n        ldir\n\
         ld c,23\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld hl,txt\n        call setfcb\n        ld c,19\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld c,19\n        ld de,0800h\n        call bdos\n        call hex\n\
         jp 0\n\
pat:    db '????????BBC'\none:    db 'ONE     BBC'\ntwo:    db 'TWO     BBC'\n\
new:    db 'NEW     BBC'\ntxt:    db '????????TXT'",
    );
    let out = run_in(dir.path(), &prog, &[]);
    assert_eq!(out, "ONE     BBC TWO     BBC 00030011A0000FF");
    assert!(dir.path().join("NEW.BBC").exists());
    assert!(!dir.path().join("TWO.BBC").exists());
    assert!(!dir.path().join("three.txt").exists());
    assert!(dir.path().join("one.bbc").exists(), "files keep their host names");
}

#[test]
fn the_command_tail_and_default_fcb_reach_the_program() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("DATA.TXT"), b"hello\x1a").unwrap();
    // Open the file named by the first argument through the default FCB at 005Ch and type it.
    let prog = program(
        "        ld hl,0080h\n        ld b,(hl)\ntail:   inc hl\n        ld a,(hl)\n        call chr\n        djnz tail\n\
         ld a,'|'\n        call chr\n\
         ld c,15\n        ld de,005Ch\n        call bdos\n        inc a\n        jp z,0\n\
         ld c,20\n        ld de,005Ch\n        call bdos\n\
         ld hl,0080h\ntype:   ld a,(hl)\n        cp 1Ah\n        jp z,0\n        call chr\n        inc hl\n        jr type",
    );
    let out = run_in(dir.path(), &prog, &["data.txt", "/x"]);
    assert_eq!(out, " DATA.TXT /X|hello");
}

#[test]
fn without_a_drive_file_calls_fail_and_names_cannot_leave_the_directory() {
    let outer = tempfile::tempdir().unwrap();
    let dir = outer.path().join("drive");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(outer.path().join("SECRET.TXT"), b"s").unwrap();
    // Open '../SECRET.TXT' is not a CP/M name at all; '/' in an FCB never maps to a path.
    let prog = program(
        "        ld hl,bad\n        call setfcb\n        ld c,15\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld hl,bad\n        call setfcb\n        ld c,22\n        ld de,0800h\n        call bdos\n        call hex\n\
         jp 0\nbad:    db '../SECRETTXT'",
    );
    let out = run_in(&dir, &prog, &[]);
    assert_eq!(out, "FFFF");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let mut m = CpmMachine::new(&prog).unwrap();
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(out, b"FFFF");
}

#[test]
fn set_dma_random_writes_and_set_random_record() {
    let dir = tempfile::tempdir().unwrap();
    // DMA at 2000h (BDOS 26) filled with 'X', 0080h with 'Z' (must not be written). Make R.DAT,
    // random write (34) at record 3; BDOS 36 from the sequential position gives 3 (a random write
    // leaves the position at its record); 'Y' written with zero fill (40) at record 5, 36 gives 5;
    // a sequential write (21) then writes record 5 again and moves on, so 36 gives 6. Close.
    let prog = program(
        "        ld hl,0080h\n        ld (hl),'Z'\n        ld de,0081h\n        ld bc,127\n        ldir\n\
         ld hl,2000h\n        ld (hl),'X'\n        ld de,2001h\n        ld bc,127\n        ldir\n\
         ld c,26\n        ld de,2000h\n        call bdos\n\
         ld hl,name\n        call setfcb\n        ld c,22\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld a,3\n        ld (0821h),a\n        ld c,34\n        ld de,0800h\n        call bdos\n        call hex\n\
         xor a\n        ld (0821h),a\n        ld c,36\n        ld de,0800h\n        call bdos\n        ld a,(0821h)\n        call hex\n\
         ld hl,2000h\n        ld (hl),'Y'\n        ld de,2001h\n        ld bc,127\n        ldir\n\
         ld a,5\n        ld (0821h),a\n        ld c,40\n        ld de,0800h\n        call bdos\n        call hex\n\
         xor a\n        ld (0821h),a\n        ld c,36\n        ld de,0800h\n        call bdos\n        ld a,(0821h)\n        call hex\n\
         ld hl,2000h\n        ld (hl),'W'\n        ld de,2001h\n        ld bc,127\n        ldir\n\
         ld c,21\n        ld de,0800h\n        call bdos\n        call hex\n\
         ld c,36\n        ld de,0800h\n        call bdos\n        ld a,(0821h)\n        call hex\n\
         ld c,16\n        ld de,0800h\n        call bdos\n        call hex\n\
         jp 0\n\
name:   db 'R       DAT'",
    );
    let out = run_in(dir.path(), &prog, &[]);
    // make 00; write 00, position 03; write 00, position 05; sequential write 00, position 06; close 00.
    assert_eq!(out, "0000030005000600");
    let bytes = std::fs::read(dir.path().join("R.DAT")).unwrap();
    assert_eq!(bytes.len(), 6 * 128, "records 0..5");
    let record = |n: usize| &bytes[n * 128..(n + 1) * 128];
    for n in [0, 1, 2, 4] {
        assert!(
            record(n).iter().all(|&b| b == 0),
            "record {n} is a zero-filled gap"
        );
    }
    assert!(
        record(3).iter().all(|&b| b == b'X'),
        "written from the DMA address, not 0080h"
    );
    assert!(
        record(5).iter().all(|&b| b == b'W'),
        "the sequential write after the random one rewrote record 5"
    );
}
