//! Token bytes the interpreter dispatches on (RISC OS BASIC V, reference sheet section 3).
//! Kept here as plain constants so the hot paths match on literals.
#![allow(missing_docs)]

pub const OTHERWISE: u8 = 0x7F;
pub const AND: u8 = 0x80;
pub const DIV: u8 = 0x81;
pub const EOR: u8 = 0x82;
pub const MOD: u8 = 0x83;
pub const OR: u8 = 0x84;
pub const ERROR: u8 = 0x85;
pub const LINE: u8 = 0x86;
pub const OFF: u8 = 0x87;
pub const STEP: u8 = 0x88;
pub const SPC: u8 = 0x89;
pub const TAB: u8 = 0x8A;
pub const ELSE: u8 = 0x8B;
pub const THEN: u8 = 0x8C;
pub const LINE_NUMBER: u8 = 0x8D;
pub const OPENIN: u8 = 0x8E;
pub const PTR: u8 = 0x8F;
pub const PAGE: u8 = 0x90;
pub const TIME: u8 = 0x91;
pub const LOMEM: u8 = 0x92;
pub const HIMEM: u8 = 0x93;
pub const ABS: u8 = 0x94;
pub const ACS: u8 = 0x95;
pub const ADVAL: u8 = 0x96;
pub const ASC: u8 = 0x97;
pub const ASN: u8 = 0x98;
pub const ATN: u8 = 0x99;
pub const BGET: u8 = 0x9A;
pub const COS: u8 = 0x9B;
pub const COUNT: u8 = 0x9C;
pub const DEG: u8 = 0x9D;
pub const ERL: u8 = 0x9E;
pub const ERR: u8 = 0x9F;
pub const EVAL: u8 = 0xA0;
pub const EXP: u8 = 0xA1;
pub const EXT: u8 = 0xA2;
pub const FALSE: u8 = 0xA3;
pub const FN: u8 = 0xA4;
pub const GET: u8 = 0xA5;
pub const INKEY: u8 = 0xA6;
pub const INSTR: u8 = 0xA7;
pub const INT: u8 = 0xA8;
pub const LEN: u8 = 0xA9;
pub const LN: u8 = 0xAA;
pub const LOG: u8 = 0xAB;
pub const NOT: u8 = 0xAC;
pub const OPENUP: u8 = 0xAD;
pub const OPENOUT: u8 = 0xAE;
pub const PI: u8 = 0xAF;
pub const POINT: u8 = 0xB0;
pub const POS: u8 = 0xB1;
pub const RAD: u8 = 0xB2;
pub const RND: u8 = 0xB3;
pub const SGN: u8 = 0xB4;
pub const SIN: u8 = 0xB5;
pub const SQR: u8 = 0xB6;
pub const TAN: u8 = 0xB7;
pub const TO: u8 = 0xB8;
pub const TRUE: u8 = 0xB9;
pub const USR: u8 = 0xBA;
pub const VAL: u8 = 0xBB;
pub const VPOS: u8 = 0xBC;
pub const CHRS: u8 = 0xBD;
pub const GETS: u8 = 0xBE;
pub const INKEYS: u8 = 0xBF;
pub const LEFTS: u8 = 0xC0;
pub const MIDS: u8 = 0xC1;
pub const RIGHTS: u8 = 0xC2;
pub const STRS: u8 = 0xC3;
pub const STRINGS: u8 = 0xC4;
pub const EOF: u8 = 0xC5;
pub const ESC_FN: u8 = 0xC6;
pub const ESC_CMD: u8 = 0xC7;
pub const ESC_STMT: u8 = 0xC8;
pub const WHEN: u8 = 0xC9;
pub const OF: u8 = 0xCA;
pub const ENDCASE: u8 = 0xCB;
pub const ELSE_BLOCK: u8 = 0xCC;
pub const ENDIF: u8 = 0xCD;
pub const ENDWHILE: u8 = 0xCE;
pub const PTR_L: u8 = 0xCF;
pub const PAGE_L: u8 = 0xD0;
pub const TIME_L: u8 = 0xD1;
pub const LOMEM_L: u8 = 0xD2;
pub const HIMEM_L: u8 = 0xD3;
pub const SOUND: u8 = 0xD4;
pub const BPUT: u8 = 0xD5;
pub const CALL: u8 = 0xD6;
pub const CHAIN: u8 = 0xD7;
pub const CLEAR: u8 = 0xD8;
pub const CLOSE: u8 = 0xD9;
pub const CLG: u8 = 0xDA;
pub const CLS: u8 = 0xDB;
pub const DATA: u8 = 0xDC;
pub const DEF: u8 = 0xDD;
pub const DIM: u8 = 0xDE;
pub const DRAW: u8 = 0xDF;
pub const END: u8 = 0xE0;
pub const ENDPROC: u8 = 0xE1;
pub const ENVELOPE: u8 = 0xE2;
pub const FOR: u8 = 0xE3;
pub const GOSUB: u8 = 0xE4;
pub const GOTO: u8 = 0xE5;
pub const GCOL: u8 = 0xE6;
pub const IF: u8 = 0xE7;
pub const INPUT: u8 = 0xE8;
pub const LET: u8 = 0xE9;
pub const LOCAL: u8 = 0xEA;
pub const MODE: u8 = 0xEB;
pub const MOVE: u8 = 0xEC;
pub const NEXT: u8 = 0xED;
pub const ON: u8 = 0xEE;
pub const VDU: u8 = 0xEF;
pub const PLOT: u8 = 0xF0;
pub const PRINT: u8 = 0xF1;
pub const PROC: u8 = 0xF2;
pub const READ: u8 = 0xF3;
pub const REM: u8 = 0xF4;
pub const REPEAT: u8 = 0xF5;
pub const REPORT: u8 = 0xF6;
pub const RESTORE: u8 = 0xF7;
pub const RETURN: u8 = 0xF8;
pub const RUN: u8 = 0xF9;
pub const STOP: u8 = 0xFA;
pub const COLOUR: u8 = 0xFB;
pub const TRACE: u8 = 0xFC;
pub const UNTIL: u8 = 0xFD;
pub const WIDTH: u8 = 0xFE;
pub const OSCLI: u8 = 0xFF;

/// Second bytes after [`ESC_STMT`].
pub mod stmt {
    pub const CASE: u8 = 0x8E;
    pub const CIRCLE: u8 = 0x8F;
    pub const FILL: u8 = 0x90;
    pub const ORIGIN: u8 = 0x91;
    pub const POINT: u8 = 0x92;
    pub const RECTANGLE: u8 = 0x93;
    pub const SWAP: u8 = 0x94;
    pub const WHILE: u8 = 0x95;
    pub const WAIT: u8 = 0x96;
    pub const MOUSE: u8 = 0x97;
    pub const QUIT: u8 = 0x98;
    pub const SYS: u8 = 0x99;
    pub const TINT: u8 = 0x9C;
    pub const ELLIPSE: u8 = 0x9D;
}

/// Second bytes after [`ESC_FN`].
pub mod func {
    pub const SUM: u8 = 0x8E;
    pub const BEAT: u8 = 0x8F;
}

/// Characters that make up variable and PROC/FN names.
#[inline(always)]
pub fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'`'
}
