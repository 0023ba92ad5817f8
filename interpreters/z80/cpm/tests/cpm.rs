//! The CP/M machine with small hand-assembled programs.

use retro_z80_cpm::{self as cpm, Console, CpmError, CpmLimits, CpmMachine, InputStream};

fn with_input(m: &mut CpmMachine, text: &'static [u8]) {
    m.console = Console::new(InputStream::Stream(Box::new(text)));
}

/// Prints "Hello, CP/M!" with BDOS 9, then returns to the CCP (RET to 0000h).
const HELLO: &[u8] = &[
    0x11, 0x09, 0x01, // LD DE,0109h
    0x0E, 0x09, // LD C,9
    0xCD, 0x05, 0x00, // CALL 5
    0xC9, // RET
    b'H', b'e', b'l', b'l', b'o', b',', b' ', b'C', b'P', b'/', b'M', b'!', b'\r', b'\n', b'$',
];

/// Reads a line with BDOS 10 into the buffer at 0130h and prints it backwards with BDOS 2.
fn reverse_program() -> Vec<u8> {
    let mut p = vec![
        0x11, 0x30, 0x01, // 0100 LD DE,0130h
        0x0E, 0x0A, // 0103 LD C,10
        0xCD, 0x05, 0x00, // 0105 CALL 5
        0x21, 0x31, 0x01, // 0108 LD HL,0131h (the count)
        0x46, // 010B LD B,(HL)
        0x78, // 010C LD A,B
        0xB7, // 010D OR A
        0xC8, // 010E RET Z
        0x5F, // 010F LD E,A
        0x16, 0x00, // 0110 LD D,0
        0x19, // 0112 ADD HL,DE (the last character)
        0x5E, // 0113 LD E,(HL)
        0xE5, // 0114 PUSH HL
        0xC5, // 0115 PUSH BC
        0x0E, 0x02, // 0116 LD C,2
        0xCD, 0x05, 0x00, // 0118 CALL 5
        0xC1, // 011B POP BC
        0xE1, // 011C POP HL
        0x2B, // 011D DEC HL
        0x10, 0xF3, // 011E DJNZ 0113h
        0xC9, // 0120 RET
    ];
    p.resize(0x30, 0);
    p.push(0x20); // 0130: buffer size
    p
}

#[test]
fn hello_world_prints_and_warm_boots() {
    let mut out = Vec::new();
    let exit = cpm::run(HELLO, std::io::empty(), &mut out, CpmLimits::default()).unwrap();
    assert_eq!(out, b"Hello, CP/M!\r\n");
    assert_eq!(exit.bdos_calls, 1);
    // LD, LD, CALL, RET: the BDOS body is not counted
    assert_eq!(exit.instructions, 4);
    assert_eq!(exit.tstates, 10 + 7 + 17 + 10);
}

#[test]
fn line_input_is_echoed_and_read() {
    let mut out = Vec::new();
    cpm::run(
        &reverse_program(),
        &b"retro\n"[..],
        &mut out,
        CpmLimits::default(),
    )
    .unwrap();
    // BDOS 10 echoes the line and returns the carriage (CR only: the program prints any LF).
    assert_eq!(String::from_utf8_lossy(&out), "retro\rorter");
}

#[test]
fn line_editing_keys_work_as_in_cp_m() {
    // Backspace and DEL rub out; ^X erases the line so far; ^U starts again on a new line.
    let mut m = CpmMachine::new(&reverse_program()).unwrap();
    with_input(&mut m, b"ab\x08c\x18xyz\x7f\n");
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(m.bus.mem[0x131], 2, "the line is 'xy'");
    assert_eq!(&m.bus.mem[0x132..0x134], b"xy");
    assert!(out.ends_with(b"\ryx"), "{:?}", String::from_utf8_lossy(&out));
    let mut m = CpmMachine::new(&reverse_program()).unwrap();
    with_input(&mut m, b"no\x15ok\n");
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(String::from_utf8_lossy(&out), "no#\r\nok\rko");
    // ^C at the start of a line warm-boots: the program prints nothing.
    let mut m = CpmMachine::new(&reverse_program()).unwrap();
    with_input(&mut m, b"\x03");
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert!(out.is_empty());
}

#[test]
fn console_input_char_by_char_maps_newline_to_cr() {
    // LD C,1; CALL 5; LD (0140h),A; LD C,1; CALL 5; LD (0141h),A; JP 0
    let prog = [
        0x0E, 0x01, 0xCD, 0x05, 0x00, 0x32, 0x40, 0x01, 0x0E, 0x01, 0xCD, 0x05, 0x00, 0x32, 0x41, 0x01, 0xC3,
        0x00, 0x00,
    ];
    let mut m = CpmMachine::new(&prog).unwrap();
    with_input(&mut m, b"\nq");
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!((m.bus.mem[0x140], m.bus.mem[0x141]), (0x0D, b'q'));
    assert_eq!(out, b"\rq", "BDOS 1 echoes");
    // When the input has ended, waiting for more is reported, not answered with made-up bytes.
    let mut m = CpmMachine::new(&prog).unwrap();
    with_input(&mut m, b"x");
    let err = m.run(Vec::new(), CpmLimits::default()).unwrap_err();
    assert!(matches!(err, CpmError::InputEnded { pc: 0x010A }), "{err}");
}

#[test]
fn zero_page_is_set_up_like_cp_m() {
    let m = CpmMachine::new(HELLO).unwrap();
    let word = |a: usize| u16::from_le_bytes([m.bus.mem[a], m.bus.mem[a + 1]]);
    assert_eq!(m.bus.mem[5], 0xC3, "JP at the BDOS entry");
    assert_eq!(word(6), cpm::TPA_TOP, "the word at 0006h is the top of the TPA");
    assert_eq!(word(1), cpm::BIOS + 3, "0000h jumps to the BIOS warm boot");
    assert_eq!((m.cpu.pc(), m.cpu.sp()), (0x0100, cpm::TPA_TOP - 2));
}

#[test]
fn failures_are_errors_not_hangs() {
    // DI; HALT can never resume
    let err = cpm::run(&[0xF3, 0x76], std::io::empty(), Vec::new(), CpmLimits::default()).unwrap_err();
    assert!(matches!(err, CpmError::Halted { pc: 0x0101 }), "{err}");
    // An endless loop stops at the instruction limit
    let limits = CpmLimits {
        max_instructions: Some(1000),
    };
    let err = cpm::run(&[0x18, 0xFE], std::io::empty(), Vec::new(), limits).unwrap_err();
    assert!(
        matches!(
            err,
            CpmError::InstructionLimit {
                instructions: 1000,
                ..
            }
        ),
        "{err}"
    );
    // A program that does not fit
    let big = vec![0; cpm::MAX_PROGRAM + 1];
    assert!(matches!(
        CpmMachine::new(&big),
        Err(CpmError::ProgramTooLarge { .. })
    ));
}

#[test]
fn bios_console_output_and_version_call() {
    // LD C,12; CALL 5 (version into HL); LD C,'!'; CALL FF0Ch (BIOS CONOUT); LD (0140h),HL; RET
    let prog = [
        0x0E, 0x0C, 0xCD, 0x05, 0x00, 0x0E, b'!', 0xCD, 0x0C, 0xFF, 0x22, 0x40, 0x01, 0xC9,
    ];
    let mut m = CpmMachine::new(&prog).unwrap();
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(out, b"!");
    assert_eq!((m.bus.mem[0x140], m.bus.mem[0x141]), (0x22, 0x00), "CP/M 2.2");
}

/// Console status answers at once (CP/M 2.2): BDOS 11, BDOS 6 with E = FFh (a character or 0)
/// and FEh (status), and BIOS CONST return 0 when nothing is typed, instead of waiting for input;
/// with Escape typed (an interrupt key, there at once: typed-ahead text is handed over only when
/// the program waits, src/console.rs), status is FFh and BDOS 6 FFh takes it.
#[test]
fn console_status_answers_at_once() {
    let prog = [
        0x0E, 0x0B, 0xCD, 0x05, 0x00, 0x32, 0x40, 0x01, // BDOS 11 -> (0140h)
        0x0E, 0x06, 0x1E, 0xFF, 0xCD, 0x05, 0x00, 0x32, 0x41, 0x01, // BDOS 6 FFh -> (0141h)
        0x0E, 0x06, 0x1E, 0xFE, 0xCD, 0x05, 0x00, 0x32, 0x42, 0x01, // BDOS 6 FEh -> (0142h)
        0xCD, 0x06, 0xFF, 0x32, 0x43, 0x01, // BIOS CONST -> (0143h)
        0x0E, 0x02, 0x1E, b'!', 0xCD, 0x05, 0x00, // BDOS 2 '!'
        0xC9,
    ];
    let mut m = CpmMachine::new(&prog).unwrap();
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(out, b"!", "the program went on past every status call");
    assert_eq!(m.bus.mem[0x140..0x144], [0, 0, 0, 0]);
    let mut m = CpmMachine::new(&prog).unwrap();
    m.console.push(0x1B); // as the terminal types it
    let mut out = Vec::new();
    m.run(&mut out, CpmLimits::default()).unwrap();
    assert_eq!(out, b"!");
    assert_eq!(m.bus.mem[0x140..0x144], [0xFF, 0x1B, 0, 0]);
}
