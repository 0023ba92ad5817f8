//! Probe programs of our own that use CP/M the way Microsoft BASIC-80, TE, DRI MAC, SLR Z80ASM,
//! STAT and MDIR do, each checked against what DRI's CP/M 2.2 documents. References:
//! - "Manual": DRI's CP/M 2.2 Operating System Manual (section numbers as in the 1982 edition:
//!   5.2 Table 5-2 the FCB fields, 6.6 the BIOS entry points, 6.9 page zero, 6.10 the disk
//!   parameter tables).
//! - "BDOS": DRI's BDOS 2.2 source (`func15` clears the module number with `clrmodnum` before
//!   `open`; `open$copy` copies the directory entry and sets the write flag with `setfwf`;
//!   `func17`/`searchn` the search rules; `dir$to$user` copies a whole directory record).
//! - "CCP": DRI's CCP 2.2 source, `fillfcb`.

mod common;

use common::{program, run_in, run_with_input};

/// BASIC-80 and TE find the BIOS through the `JP` at 0000h and call its console entries
/// directly: through a copy of the jump table, through the address taken out of a `JP`, and
/// through `CALL`s they patch with (0001h) + offset. Console input through the BIOS and the BDOS,
/// interleaved, loses and repeats nothing.
#[test]
fn bios_vectors_copied_or_taken_from_the_jump_table_work() {
    let prog = program(
        "\
; Manual 6.9: 0000h holds JP WBOOT, the second entry of the BIOS table, so the table starts 3
; bytes before the address in 0001h.
        ld hl,(1)\n        ld de,-3\n        add hl,de\n        ld (base),hl\n\
; Manual 6.6: the table is 17 JPs. Print J if every entry starts with C3h.
        ld b,17\n        ld c,'J'\nchk:    ld a,(hl)\n        cp 0C3h\n        jr z,isjp\n        ld c,'x'\n\
isjp:   inc hl\n        inc hl\n        inc hl\n        djnz chk\n        ld a,c\n        call chr\n\
; Copy the table, as TE does, and print A through the copy's CONOUT (entry 4).
        ld hl,(base)\n        ld de,table\n        ld bc,51\n        ldir\n\
        ld c,'A'\n        call table+12\n\
; Take CONOUT's address out of the JP, as BASIC-80 does, and print B through it.
        ld hl,(table+13)\n        ld (via+1),hl\n        ld c,'B'\nvia:    call 0\n\
; Patch CALLs with (0001h) + 3, + 6, + 9 (CONST, CONIN, CONOUT), BASIC-80's way.
        ld hl,(1)\n        inc hl\n        inc hl\n        inc hl\n        ld (const+1),hl\n\
        inc hl\n        inc hl\n        inc hl\n        ld (conin+1),hl\n\
        inc hl\n        inc hl\n        inc hl\n        ld (conout+1),hl\n\
        ld c,'C'\n        call conout\n        ld c,' '\n        call conout\n\
; Input, interleaved: BIOS CONST/CONIN, BDOS 11/1, BDOS 6, BIOS CONIN through the copy.
wait1:  call const\n        or a\n        jr z,wait1\n        call conin\n        call shown\n\
wait2:  ld c,11\n        call bdos\n        or a\n        jr z,wait2\n        ld c,1\n        call bdos\n        call shown\n\
wait3:  ld c,6\n        ld e,0FFh\n        call bdos\n        or a\n        jr z,wait3\n        call shown\n\
        call table+9\n        call shown\n\
; LISTST (entry 15): the list device is ready (FFh).
        call table+45\n        call hex\n\
; SELDSK (entry 9) for A: gives the disk parameter header, whose word at +10 is the DPB that
; BDOS 31 gives (Manual 6.10): print D if they agree.
        ld c,0\n        call table+27\n        ld de,10\n        add hl,de\n        ld e,(hl)\n        inc hl\n        ld d,(hl)\n\
        push de\n        ld c,31\n        call 5\n        pop de\n        or a\n        sbc hl,de\n        ld a,'D'\n        jr z,same\n        ld a,'d'\n\
same:   call chr\n\
; Warm boot through the copy's WBOOT entry ends the program: nothing after it is printed.
        jp table+3\n\
        ld c,'!'\n        call conout\n\
        jp 0\n\
; Prints [c] for the character in A, through the patched CONOUT.
shown:  push af\n        ld c,'['\n        call conout\n        pop af\n        ld c,a\n        call conout\n\
        ld c,']'\n        jp conout\n\
const:  jp 0\nconin:  jp 0\nconout: jp 0\n\
base:   dw 0\ntable:  ds 51",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run_with_input(dir.path(), &prog, &[], b"pqrs");
    // BDOS 1 echoes what it reads (Manual 5.3, function 1); BIOS CONIN and BDOS 6 do not.
    assert_eq!(out, "JABC [p]q[q][r][s]FFD");
}

/// DRI MAC and SLR Z80ASM open files with whatever S2 their FCBs held; the BDOS clears S2 first
/// (BDOS `func15` calls `clrmodnum`; Manual Table 5-2: "s2 ... set to zero on call to OPEN"), so
/// the open finds the file's first module and a read starts at record 0.
#[test]
fn open_with_garbage_in_s2_reads_from_record_0() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = Vec::new();
    for fill in [b'A', b'B', b'C'] {
        data.extend_from_slice(&[fill; 128]);
    }
    std::fs::write(dir.path().join("DATA.BIN"), &data).unwrap();
    // 160 records: extent 0 holds 128, extent 1 holds 32; record 128 starts with 'X'.
    let mut big = vec![b'.'; 20 * 1024];
    big[128 * 128] = b'X';
    std::fs::write(dir.path().join("BIG.TXT"), &big).unwrap();
    let prog = program(
        "\
; DATA.BIN with S2 = 55h, RC = 77h: open, then print the result, S2, RC, the first block number
; of the map, then read record 0 and print its first byte.
        ld hl,data\n        call setfcb\n        ld a,55h\n        ld (080Eh),a\n        ld a,77h\n        ld (080Fh),a\n\
        call open\n        call sequential\n\
; BIG.TXT, extent 1, S2 = 0AAh: RC is that extent's 32 records and CR 0 is record 128.
        ld hl,bigf\n        call setfcb\n        ld a,1\n        ld (080Ch),a\n        ld a,0AAh\n        ld (080Eh),a\n\
        call open\n        call sequential\n\
; Extent 2 of BIG.TXT does not exist: the open fails with FFh.
        ld hl,bigf\n        call setfcb\n        ld a,2\n        ld (080Ch),a\n        ld c,15\n        ld de,0800h\n        call bdos\n        call hex\n\
; '?' in the name (BDOS `search` matches it): the first file that matches is opened, and its
; name is in the FCB afterwards.
        ld a,'|'\n        call chr\n        ld hl,wild\n        call setfcb\n        call open\n        call sequential\n\
        ld hl,0801h\n        ld b,11\nfname:  ld a,(hl)\n        call chr\n        inc hl\n        djnz fname\n\
        jp 0\n\
open:   ld c,15\n        ld de,0800h\n        call bdos\n        call hex\n        ld a,' '\n        call chr\n\
        ld a,(080Eh)\n        call hex\n        ld a,' '\n        call chr\n        ld a,(080Fh)\n        call hex\n\
        ld a,' '\n        call chr\n        ld a,(0810h)\n        call hex\n        ld a,' '\n        call chr\n        ret\n\
sequential: xor a\n        ld (0820h),a\n        ld c,20\n        ld de,0800h\n        call bdos\n        call hex\n\
        ld a,(0080h)\n        call chr\n        ld a,(080Eh)\n        call hex\n        ld a,'|'\n        jp chr\n\
data:   db 'DATA    BIN'\nbigf:   db 'BIG     TXT'\nwild:   db '?A??????B??'",
    );
    let out = run_in(dir.path(), &prog, &[]);
    // Open OK (00); S2 = 80h: cleared, then the directory's module 0 with the BDOS's write flag
    // (`setfwf`); RC = 03 (Table 5-2: the record count of extent EX); the map's first block is 1Ch
    // (blocks go in name order after the 16 directory blocks: BIG.TXT has 10h-19h, DATA.BIN 1Ah);
    // read 00 'A', S2 still 80h (a read keeps the flag). BIG.TXT extent 1: RC 20h (32), map from
    // block 18h, read 00 'X'. Extent 2: FF. ?A??????.B?? opens DATA.BIN.
    assert_eq!(
        out,
        "00 80 03 1A 00A80|00 80 20 18 00X80|FF|00 80 03 1A 00A80|DATA    BIN"
    );
}

/// STAT and MDIR walk every directory entry (search with `?` in the drive byte), add up each
/// file's records and blocks from RC and the allocation maps, and count free space from the
/// allocation vector, sizing blocks from the DPB. The probe does the same and prints what it
/// found; the sums must be the files' true sizes.
#[test]
fn a_stat_style_directory_walk_gives_true_sizes_records_and_free_space() {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, usize); 5] = [
        ("BIG.TXT", 20 * 1024),
        ("EMPTY.DAT", 0),
        ("HUGE.DAT", 600 * 1024),
        ("ONE.BYT", 1),
        ("SIXTEEN.K", 16 * 1024),
    ];
    for (name, len) in files {
        std::fs::write(dir.path().join(name), vec![0x55u8; len]).unwrap();
    }
    let prog = program(
        "\
; BDOS 31 and 27 answer in HL (the library's `bdos` keeps HL, so call 5 here).
; Manual 6.10: BSH at DPB+2, EXM at +4, DSM (16 bits) at +5, DRM at +7, AL0/AL1 at +9.
        ld c,31\n        call 5\n        ld (dpb),hl\n\
        inc hl\n        inc hl\n        ld a,(hl)\n        call hex\n        ld a,' '\n        call chr\n\
        inc hl\n        inc hl\n        ld a,(hl)\n        call hex\n        ld a,' '\n        call chr\n\
        inc hl\n        ld e,(hl)\n        inc hl\n        ld d,(hl)\n        ld a,d\n        call hex\n        ld a,e\n        call hex\n\
        inc de\n        ld (nblk),de\n        ld a,' '\n        call chr\n\
        inc hl\n        inc hl\n        inc hl\n        ld a,(hl)\n        inc hl\n        ld l,(hl)\n        ld h,a\n        ld a,h\n        call hex\n        ld a,l\n        call hex\n\
        ld a,' '\n        call chr\n\
; BDOS 27: the allocation vector, one bit a block, top bit first; count the zero bits.
        ld c,27\n        call 5\n        ld de,(nblk)\n        ld ix,0\n\
alv:    ld c,(hl)\n        inc hl\n        ld b,8\n\
abit:   rl c\n        jr c,aused\n        inc ix\n\
aused:  dec de\n        ld a,d\n        or e\n        jr z,adone\n        djnz abit\n        jr alv\n\
adone:  push ix\n        pop hl\n        ld a,h\n        call hex\n        ld a,l\n        call hex\n\
; BDOS 17 with '?' in the drive byte: every entry; the entry is at DMA + 32 x A.
        ld hl,0800h\n        ld b,16\nq:      ld (hl),'?'\n        inc hl\n        djnz q\n\
        ld c,17\n        ld de,0800h\n\
walk:   call bdos\n        cp 0FFh\n        jr z,wdone\n\
        rrca\n        rrca\n        rrca\n        ld l,a\n        ld h,0\n        ld de,0080h\n        add hl,de\n\
        ld a,(hl)\n        cp 0E5h\n        jr z,wnext\n\
        ld a,'/'\n        call chr\n        inc hl\n        ld b,11\n\
wname:  ld a,(hl)\n        and 7Fh\n        call chr\n        inc hl\n        djnz wname\n\
        ld a,' '\n        call chr\n        ld a,(hl)\n        call hex\n        inc hl\n        inc hl\n\
        ld a,' '\n        call chr\n        ld a,(hl)\n        call hex\n        inc hl\n\
        ld a,' '\n        call chr\n        ld a,(hl)\n        call hex\n        inc hl\n\
        ld b,8\n        ld c,0\n\
wmap:   ld a,(hl)\n        inc hl\n        or (hl)\n        inc hl\n        jr z,wzero\n        inc c\n\
wzero:  djnz wmap\n        ld a,' '\n        call chr\n        ld a,c\n        call hex\n\
wnext:  ld c,18\n        jr walk\n\
wdone:  jp 0\n\
dpb:    dw 0\nnblk:   dw 0",
    );
    let out = run_in(dir.path(), &prog, &[]);
    let mut parts = out.split('/');
    let head: Vec<u32> = parts
        .next()
        .unwrap()
        .split_whitespace()
        .map(|h| u32::from_str_radix(h, 16).unwrap())
        .collect();
    let [bsh, exm, dsm, al, free] = head[..] else {
        panic!("{out}")
    };
    // Block size 128 << BSH; the directory's blocks are the AL0/AL1 bits (Manual 6.10).
    let block = 128u32 << bsh;
    assert_eq!((block, exm, dsm), (2048, 0, 4095), "{out}");
    let directory_blocks = al.count_ones();
    let mut records = std::collections::BTreeMap::<String, u32>::new();
    let mut blocks = std::collections::BTreeMap::<String, u32>::new();
    for entry in parts {
        let (name, rest) = entry.split_at(11);
        let f: Vec<u32> = rest
            .split_whitespace()
            .map(|h| u32::from_str_radix(h, 16).unwrap())
            .collect();
        let [ex, s2, rc, nblocks] = f[..] else {
            panic!("{out}")
        };
        // Table 5-2: RC counts the records of extent EX; each entry holds EXM + 1 extents.
        assert!(ex < 32 && s2 < 16 && rc <= 128, "{entry}");
        *records.entry(name.to_string()).or_default() += (ex & exm) * 128 + rc;
        *blocks.entry(name.to_string()).or_default() += nblocks;
    }
    let mut used = 0;
    for (name, len) in files {
        let (base, ext) = name.split_once('.').unwrap();
        let key = format!("{base:<8}{ext:<3}");
        let want_records = len.div_ceil(128) as u32;
        let want_blocks = len.div_ceil(block as usize) as u32;
        assert_eq!(records.get(&key), Some(&want_records), "records of {name}: {out}");
        assert_eq!(blocks.get(&key), Some(&want_blocks), "blocks of {name}: {out}");
        used += want_blocks;
    }
    // A 20 KB file is 160 records and 20K, not 32 records and 0K.
    assert_eq!(records["BIG     TXT"], 160);
    assert_eq!(blocks["BIG     TXT"] * block / 1024, 20);
    assert_eq!(free, dsm + 1 - directory_blocks - used, "{out}");
    // 600K is 4,800 records in 38 extents: past extent 31 the module number S2 goes to 1 and EX
    // starts again at 0 (BDOS `open$reel`); the last extent holds the 64 records left.
    assert!(
        out.contains("/HUGE    DAT 1F 00 80 08/HUGE    DAT 00 01 80 08"),
        "{out}"
    );
    assert!(out.contains("/HUGE    DAT 05 01 40 04/ONE"), "{out}");
}

/// The default FCBs at 005Ch and 006Ch and the tail at 0080h, as the CCP leaves them for
/// awkward command lines (CCP `fillfcb`: the second FCB is parsed from where the first stopped;
/// `d:` selects a drive; names are cut to 8.3; `*` fills with `?`; Manual 6.9: FCB at 005Ch,
/// second name at 006Ch, CR at 007Ch zero, the tail at 0080h).
#[test]
fn fcbs_from_awkward_command_tails_match_the_ccps() {
    // Prints 005Ch-007Ch as text (non-printing bytes as '.') then '|', then the tail.
    let prog = program(
        "\
        ld hl,005Ch\n        ld b,33\n\
fcb:    ld a,(hl)\n        cp ' '\n        jr nc,show\n        add a,'0'\n\
show:   call chr\n        inc hl\n        djnz fcb\n\
        ld a,'|'\n        call chr\n\
        ld hl,0080h\n        ld b,(hl)\n        inc b\n        dec b\n        jp z,0\n\
tail:   inc hl\n        ld a,(hl)\n        call chr\n        djnz tail",
    );
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| run_in(dir.path(), &prog, args);
    // Drive bytes and EX/S1/S2/RC print as digits ('0' + value). PIP-style: blank second FCB.
    assert_eq!(
        run(&["b.txt=a.txt"]),
        "0B       TXT00000           00000| B.TXT=A.TXT"
    );
    // STAT DSK: and a drive alone.
    assert_eq!(run(&["dsk:"]), "0DSK        00000           00000| DSK:");
    assert_eq!(
        run(&["b:", "c:*.c"]),
        "2           00003????????C  00000| B: C:*.C"
    );
    // Too long for 8.3: cut, not blank; wildcards in the middle of a name.
    assert_eq!(
        run(&["verylongname.text", "a*b.?x*"]),
        "0VERYLONGTEX00000A????????X?00000| VERYLONGNAME.TEXT A*B.?X*"
    );
}

/// BASIC-80's way with a piped program: lines read through BIOS CONIN and echoed through CONOUT;
/// while a program RUNs, CONST is polled after every statement and a character found is taken
/// with CONIN and kept for the next input; SAVE writes the lines with BDOS make, sequential write
/// and close. Nothing typed ahead is lost or read twice, and the file holds the program.
#[test]
fn a_basic_80_style_piped_program_runs_and_is_saved() {
    let prog = program(
        "\
        ld hl,(1)\n        inc hl\n        inc hl\n        inc hl\n        ld (const+1),hl\n\
        inc hl\n        inc hl\n        inc hl\n        ld (conin+1),hl\n\
        inc hl\n        inc hl\n        inc hl\n        ld (conout+1),hl\n\
        ld hl,text\n        ld (tend),hl\n\
main:   call getline\n        ld hl,line\n        ld de,run\n        call same\n        jr z,running\n\
        ld hl,line\n        ld de,save\n        call same\n        jr z,saving\n\
; A program line: keep it, with CR LF.
        ld hl,line\n        ld de,(tend)\nkeep:   ld a,(hl)\n        ld (de),a\n        inc hl\n        inc de\n        or a\n        jr nz,keep\n\
        dec de\n        ld a,13\n        ld (de),a\n        inc de\n        ld a,10\n        ld (de),a\n        inc de\n        ld (tend),de\n        jr main\n\
; RUN: 3,000 statements, CONST polled after each; a character found is kept in charc (and a *
; shows when).
running: ld bc,3000\nstmt:   push bc\n        ld a,(charc)\n        or a\n        jr nz,polled\n\
        call const\n        or a\n        jr z,polled\n        call conin\n        ld (charc),a\n        ld c,'*'\n        call conout\n\
polled: pop bc\n        dec bc\n        ld a,b\n        or c\n        jr nz,stmt\n        jr main\n\
; SAVE: make PROG.BAS and write the text in records padded with ^Z.
saving: ld hl,(tend)\n        ld b,128\npad:    ld (hl),1Ah\n        inc hl\n        djnz pad\n\
        ld hl,fname\n        call setfcb\n        ld c,19\n        ld de,0800h\n        call bdos\n\
        ld c,22\n        ld de,0800h\n        call bdos\n        ld hl,text\n\
wrec:   ld de,(tend)\n        or a\n        push hl\n        sbc hl,de\n        pop hl\n        jr nc,closef\n\
        ex de,hl\n        ld c,26\n        call bdos\n        ex de,hl\n        ld c,21\n        ld de,0800h\n        call bdos\n\
        ld de,128\n        add hl,de\n        jr wrec\n\
closef: ld c,16\n        ld de,0800h\n        call bdos\n        jp 0\n\
; Reads a line into line (zero-terminated), echoing it; charc first if it holds a character.
getline: ld hl,line\ngetc:   ld a,(charc)\n        or a\n        jr z,fresh\n        push af\n        xor a\n        ld (charc),a\n        pop af\n        jr gotc\n\
fresh:  push hl\n        call conin\n        pop hl\n\
gotc:   cp 13\n        jr z,eol\n        ld (hl),a\n        inc hl\n        push hl\n        ld c,a\n        call conout\n        pop hl\n        jr getc\n\
eol:    ld (hl),0\n        ld c,13\n        call conout\n        ld c,10\n        jp conout\n\
; Z if the strings at HL and DE are the same.
same:   ld a,(de)\n        cp (hl)\n        ret nz\n        or a\n        ret z\n        inc hl\n        inc de\n        jr same\n\
const:  jp 0\nconin:  jp 0\nconout: jp 0\n\
run:    db 'RUN',0\nsave:   db 'SAVE',0\nfname:  db 'PROG    BAS'\n\
charc:  db 0\ntend:   dw 0\nline:   ds 128\ntext:   ds 1024",
    );
    let dir = tempfile::tempdir().unwrap();
    let input = b"10 PRINT 1\n20 GOTO 10\nRUN\nSAVE\n";
    let out = run_with_input(dir.path(), &prog, &[], input);
    // The S of SAVE, typed ahead, is found while the program runs (*), kept, and read once.
    assert_eq!(out, "10 PRINT 1\r\n20 GOTO 10\r\nRUN\r\n*SAVE\r\n");
    let saved = std::fs::read(dir.path().join("PROG.BAS")).unwrap();
    let text = b"10 PRINT 1\r\n20 GOTO 10\r\n";
    assert_eq!(saved.len(), 128, "one record");
    assert_eq!(&saved[..text.len()], text);
    assert!(saved[text.len()..].iter().all(|&b| b == 0x1A));
}

/// TE's way with the screen: it copies the BIOS table and draws through CONOUT with cursor
/// addressing (here the VT100's), polls CONST and reads keys with CONIN. Run as the front end
/// runs it (frames, keys typed into the console), the screen shows what it drew and each key
/// lands once, where the cursor is.
#[test]
fn a_te_style_editor_draws_its_screen_through_the_bios() {
    use retro_machine::machine::{Machine, RunState};
    use retro_machine::{HeldKeys, HoldMode, VirtualTime};
    let prog = program(
        "\
        ld hl,(1)\n        ld de,-3\n        add hl,de\n        ld de,table\n        ld bc,51\n        ldir\n\
        ld hl,screen\n        call puts\n\
; The edit loop: CONST until a key, CONIN, ^Q quits through the copy's WBOOT, others echo.
edit:   call table+6\n        or a\n        jr z,edit\n        call table+9\n        cp 11h\n        jp z,table+3\n\
        ld c,a\n        call table+12\n        jr edit\n\
puts:   ld a,(hl)\n        or a\n        ret z\n        ld c,a\n        push hl\n        call table+12\n        pop hl\n        inc hl\n        jr puts\n\
screen: db 1Bh,'[2J',1Bh,'[24;1H','TE  A:NOTES.TXT  Lin 1  Col 1',1Bh,'[1;1H',0\n\
table:  ds 51",
    );
    let mut run = retro_z80_cpm::screen::CpmRun::new(retro_z80_cpm::CpmMachine::new(&prog).unwrap());
    let held = HeldKeys::new(HoldMode::ReleaseEvents);
    let mut frame = 0u64;
    let mut step = |run: &mut retro_z80_cpm::screen::CpmRun| {
        frame += 1;
        run.run_frame(VirtualTime::from_micros(20_000 * frame), &held)
    };
    for _ in 0..5 {
        step(&mut run);
    }
    assert_eq!(run.terminal.row_text(23), "TE  A:NOTES.TXT  Lin 1  Col 1");
    assert_eq!(run.terminal.row_text(0), "");
    for &k in b"Hello" {
        run.machine.console.push(k);
        step(&mut run);
    }
    assert_eq!(run.terminal.row_text(0), "Hello", "each key once, at the cursor");
    run.machine.console.push(0x11);
    let mut state = step(&mut run);
    for _ in 0..5 {
        state = step(&mut run);
    }
    assert_eq!(state, RunState::Ended, "^Q warm-boots through the copied WBOOT");
}

/// MAC reads its source sequentially to the end: across the 16K extent boundary the FCB moves to
/// the next extent (EX + 1, RC that extent's records, CR from 0), as the BDOS's `open$reel` does,
/// and the read after the last record says end of file (1).
#[test]
fn sequential_reads_cross_extents_as_the_bdos_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = Vec::new();
    for r in 0..160u32 {
        text.extend(std::iter::repeat_n(b'a' + (r % 26) as u8, 128));
    }
    std::fs::write(dir.path().join("DUMP.ASM"), &text).unwrap();
    // Count records read and add up their first bytes; then print the count, the sum, the FCB's
    // EX, RC and CR, and the result of the read past the end.
    let prog = program(
        "\
        ld hl,name\n        call setfcb\n        ld a,0C3h\n        ld (080Eh),a\n        ld c,15\n        ld de,0800h\n        call bdos\n\
        xor a\n        ld (0820h),a\n        ld hl,0\n        ld ix,0\n\
next:   ld c,20\n        ld de,0800h\n        call bdos\n        or a\n        jr nz,done\n\
        inc hl\n        ld a,(0080h)\n        ld e,a\n        ld d,0\n        add ix,de\n        jr next\n\
done:   push af\n        ld a,h\n        call hex\n        ld a,l\n        call hex\n        ld a,' '\n        call chr\n\
        push ix\n        pop hl\n        ld a,h\n        call hex\n        ld a,l\n        call hex\n        ld a,' '\n        call chr\n\
        ld a,(080Ch)\n        call hex\n        ld a,(080Fh)\n        call hex\n        ld a,(0820h)\n        call hex\n\
        ld a,' '\n        call chr\n        pop af\n        call hex\n        jp 0\n\
name:   db 'DUMP    ASM'",
    );
    let out = run_in(dir.path(), &prog, &[]);
    let sum: u32 = (0..160u32).map(|r| u32::from(b'a') + r % 26).sum();
    // 160 (A0h) records; EX 1, RC 20h (32), CR 20h (past the last); then 01, end of file.
    assert_eq!(out, format!("00A0 {sum:04X} 012020 01"));
}

/// Directory listers (MDIR, and copiers that walk a wildcard) write between search first and
/// search next; DRI's BDOS goes on with the search (BDOS: `searchn` keeps its place in
/// `dirloc`, which a write inside an extent does not move). The probe searches `*.TXT`, writes
/// a record to one of the files it found, and searches on: every file is still found.
#[test]
fn a_write_between_search_first_and_search_next_keeps_the_search() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["A.TXT", "B.TXT", "C.TXT", "OUT.TXT"] {
        std::fs::write(dir.path().join(name), [b'x'; 128]).unwrap();
    }
    let prog = program(
        "\
        ld hl,pat\n        call setfcb\n        ld c,17\n        ld de,0800h\n        call bdos\n        call hex\n\
        ld c,15\n        ld de,outf\n        call bdos\n        call hex\n\
        ld c,21\n        ld de,outf\n        call bdos\n        call hex\n\
next:   ld c,18\n        call bdos\n        push af\n        call hex\n        pop af\n        cp 0FFh\n        jr nz,next\n\
        jp 0\n\
pat:    db '????????TXT'\noutf:   db 0,'OUT     TXT'\n        ds 24",
    );
    let out = run_in(dir.path(), &prog, &[]);
    // A.TXT at place 0 of the first record; open and write OK (00 00); then B, C and OUT at places
    // 1-3 (files in name order, one entry each), and FFh when none is left.
    assert_eq!(out, "000000010203FF");
}
