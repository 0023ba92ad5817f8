//! The BBC BASIC V token tables: the single source of truth for token bytes, keyword spellings and
//! the per-keyword actions the tokenizer follows.
//!
//! The keyword table ([`KEYWORDS`]) is kept in the order of RISC OS BASIC V's lexical table: grouped
//! by first letter, and *within* a letter in the ROM's own order, because the tokenizer takes the
//! first entry that matches (so `ENDPROC` precedes `END`, `OFF` precedes `OF`, and `C.` is `COLOUR`).
//! Changing the order changes the bytes a program tokenizes to.
//!
//! Byte values are named constants so that the interpreter can match on them (`tokens::PRINT`).
//! Two-byte tokens are an escape byte ([`ESC_FN`], [`ESC_CMD`], [`ESC_STMT`]) followed by a second
//! byte named in [`func`], [`cmd`] or [`stmt`].

/// Not a keyword if the next character is a word character (`TRUE`, `RETURN`, `POS`...).
pub const F_CONDITIONAL: u8 = 1;
/// After this keyword the tokenizer is in "right" (expression) mode, with no line numbers.
pub const F_RIGHT: u8 = 2;
/// After this keyword the tokenizer is in "left" (statement start) mode, with no line numbers; on a
/// two-byte keyword this bit instead selects the function escape &C6.
pub const F_LEFT: u8 = 4;
/// A two-byte token: escape &C7 by default, &C8 with [`F_PSEUDO`], &C6 with [`F_LEFT`].
pub const F_TWO_BYTE: u8 = 8;
/// Line-number constants (`&8D` + 3 bytes) may follow (GOTO, GOSUB, RESTORE, THEN, ELSE...).
pub const F_LINE_NUMBERS: u8 = 16;
/// The rest of the line is copied verbatim (REM, DATA, EDIT).
pub const F_VERBATIM: u8 = 32;
/// One-byte tokens: a pseudo-variable whose statement-start form is the token + &40 (PTR, PAGE,
/// TIME, LOMEM, HIMEM). Two-byte tokens: the escape is &C8 (statement).
pub const F_PSEUDO: u8 = 64;
/// The keyword includes an opening bracket (`TAB(`, `POINT(`...).
pub const F_BRACKET: u8 = 128;

/// One keyword of the tokenizer's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// The spelling, as typed and as LISTed.
    pub name: &'static str,
    /// The token byte; for two-byte tokens the byte after the escape.
    pub byte: u8,
    /// Action flags, `F_*`.
    pub flags: u8,
}

impl Keyword {
    /// The escape byte of a two-byte keyword, or `None` for a one-byte keyword.
    pub fn escape(&self) -> Option<u8> {
        if self.flags & F_TWO_BYTE == 0 {
            None
        } else if self.flags & F_PSEUDO != 0 {
            Some(ESC_STMT)
        } else if self.flags & F_LEFT != 0 {
            Some(ESC_FN)
        } else {
            Some(ESC_CMD)
        }
    }
    /// Whether the keyword is conditional (rejected before a word character).
    pub fn is_conditional(&self) -> bool {
        self.flags & F_CONDITIONAL != 0
    }
}

macro_rules! one_byte_tokens {
    ($($name:ident = $val:expr;)*) => {
        $(#[doc = concat!("One-byte token `", stringify!($name), "`.")] pub const $name: u8 = $val;)*
    };
}

one_byte_tokens! {
    OTHERWISE = 0x7F; AND = 0x80; DIV = 0x81; EOR = 0x82; MOD = 0x83; OR = 0x84; ERROR = 0x85;
    LINE = 0x86; OFF = 0x87; STEP = 0x88; SPC = 0x89; TAB = 0x8A; ELSE = 0x8B; THEN = 0x8C;
    OPENIN = 0x8E; PTR = 0x8F; PAGE = 0x90; TIME = 0x91; LOMEM = 0x92; HIMEM = 0x93;
    ABS = 0x94; ACS = 0x95; ADVAL = 0x96; ASC = 0x97; ASN = 0x98; ATN = 0x99; BGET = 0x9A;
    COS = 0x9B; COUNT = 0x9C; DEG = 0x9D; ERL = 0x9E; ERR = 0x9F; EVAL = 0xA0; EXP = 0xA1;
    EXT = 0xA2; FALSE = 0xA3; FN = 0xA4; GET = 0xA5; INKEY = 0xA6; INSTR = 0xA7; INT = 0xA8;
    LEN = 0xA9; LN = 0xAA; LOG = 0xAB; NOT = 0xAC; OPENUP = 0xAD; OPENOUT = 0xAE; PI = 0xAF;
    POINT = 0xB0; POS = 0xB1; RAD = 0xB2; RND = 0xB3; SGN = 0xB4; SIN = 0xB5; SQR = 0xB6;
    TAN = 0xB7; TO = 0xB8; TRUE = 0xB9; USR = 0xBA; VAL = 0xBB; VPOS = 0xBC; CHR_S = 0xBD;
    GET_S = 0xBE; INKEY_S = 0xBF; LEFT_S = 0xC0; MID_S = 0xC1; RIGHT_S = 0xC2; STR_S = 0xC3;
    STRING_S = 0xC4; EOF = 0xC5; WHEN = 0xC9; OF = 0xCA; ENDCASE = 0xCB;
    ENDIF = 0xCD; ENDWHILE = 0xCE; PTR_LEFT = 0xCF; PAGE_LEFT = 0xD0; TIME_LEFT = 0xD1;
    LOMEM_LEFT = 0xD2; HIMEM_LEFT = 0xD3; SOUND = 0xD4; BPUT = 0xD5; CALL = 0xD6; CHAIN = 0xD7;
    CLEAR = 0xD8; CLOSE = 0xD9; CLG = 0xDA; CLS = 0xDB; DATA = 0xDC; DEF = 0xDD; DIM = 0xDE;
    DRAW = 0xDF; END = 0xE0; ENDPROC = 0xE1; ENVELOPE = 0xE2; FOR = 0xE3; GOSUB = 0xE4;
    GOTO = 0xE5; GCOL = 0xE6; IF = 0xE7; INPUT = 0xE8; LET = 0xE9; LOCAL = 0xEA; MODE = 0xEB;
    MOVE = 0xEC; NEXT = 0xED; ON = 0xEE; VDU = 0xEF; PLOT = 0xF0; PRINT = 0xF1; PROC = 0xF2;
    READ = 0xF3; REM = 0xF4; REPEAT = 0xF5; REPORT = 0xF6; RESTORE = 0xF7; RETURN = 0xF8;
    RUN = 0xF9; STOP = 0xFA; COLOUR = 0xFB; TRACE = 0xFC; UNTIL = 0xFD; WIDTH = 0xFE;
    OSCLI = 0xFF;
}

/// `&8D`: a line-number constant follows, encoded in 3 bytes (see [`encode_line_number`]).
pub const LINE_NUMBER: u8 = 0x8D;
/// The ELSE of a multi-line (block) IF, at the start of a line. The RISC OS tokenizer itself always
/// writes [`ELSE`] (&8B); the interpreter may rewrite it.
pub const ELSE_BLOCK: u8 = 0xCC;
/// Escape for the two-byte function tokens ([`func`]).
pub const ESC_FN: u8 = 0xC6;
/// Escape for the two-byte immediate-command tokens ([`cmd`]).
pub const ESC_CMD: u8 = 0xC7;
/// Escape for the two-byte statement tokens ([`stmt`]).
pub const ESC_STMT: u8 = 0xC8;
/// What the statement-start form of a pseudo-variable adds to its expression form.
pub const LEFT_OFFSET: u8 = PTR_LEFT - PTR;
/// The end-of-line byte, also the first byte of every line in a program.
pub const CR: u8 = 0x0D;

/// Second bytes after [`ESC_FN`] (&C6).
pub mod func {
    /// `SUM` (&C6 &8E).
    pub const SUM: u8 = 0x8E;
    /// `BEAT` (&C6 &8F).
    pub const BEAT: u8 = 0x8F;
}

/// Second bytes after [`ESC_CMD`] (&C7).
pub mod cmd {
    #![allow(missing_docs)]
    pub const APPEND: u8 = 0x8E;
    pub const AUTO: u8 = 0x8F;
    pub const CRUNCH: u8 = 0x90;
    pub const DELETE: u8 = 0x91;
    pub const EDIT: u8 = 0x92;
    pub const HELP: u8 = 0x93;
    pub const LIST: u8 = 0x94;
    pub const LOAD: u8 = 0x95;
    pub const LVAR: u8 = 0x96;
    pub const NEW: u8 = 0x97;
    pub const OLD: u8 = 0x98;
    pub const RENUMBER: u8 = 0x99;
    pub const SAVE: u8 = 0x9A;
    pub const TEXTLOAD: u8 = 0x9B;
    pub const TEXTSAVE: u8 = 0x9C;
    pub const TWIN: u8 = 0x9D;
    pub const TWINO: u8 = 0x9E;
    pub const INSTALL: u8 = 0x9F;
}

/// Second bytes after [`ESC_STMT`] (&C8).
pub mod stmt {
    #![allow(missing_docs)]
    pub const CASE: u8 = 0x8E;
    pub const CIRCLE: u8 = 0x8F;
    pub const FILL: u8 = 0x90;
    pub const ORIGIN: u8 = 0x91;
    /// `POINT` the statement (no bracket); `POINT(` the function is the one-byte `tokens::POINT`.
    pub const POINT: u8 = 0x92;
    pub const RECTANGLE: u8 = 0x93;
    pub const SWAP: u8 = 0x94;
    pub const WHILE: u8 = 0x95;
    pub const WAIT: u8 = 0x96;
    pub const MOUSE: u8 = 0x97;
    pub const QUIT: u8 = 0x98;
    pub const SYS: u8 = 0x99;
    /// The old statement form of INSTALL: still LISTed, never produced by the tokenizer.
    pub const INSTALL: u8 = 0x9A;
    pub const LIBRARY: u8 = 0x9B;
    pub const TINT: u8 = 0x9C;
    pub const ELLIPSE: u8 = 0x9D;
    pub const BEATS: u8 = 0x9E;
    pub const TEMPO: u8 = 0x9F;
    pub const VOICES: u8 = 0xA0;
    pub const VOICE: u8 = 0xA1;
    pub const STEREO: u8 = 0xA2;
    pub const OVERLAY: u8 = 0xA3;
}

const C: u8 = F_CONDITIONAL;
const R: u8 = F_RIGHT;
const L: u8 = F_LEFT;
const T2: u8 = F_TWO_BYTE;
const N: u8 = F_LINE_NUMBERS;
const V: u8 = F_VERBATIM;
const P: u8 = F_PSEUDO;
const B: u8 = F_BRACKET;

const fn k(name: &'static str, byte: u8, flags: u8) -> Keyword {
    Keyword { name, byte, flags }
}

/// The tokenizer's keyword table, in RISC OS BASIC V's order (see the module documentation).
pub const KEYWORDS: &[Keyword] = &[
    // A
    k("AND", AND, R),
    k("ABS", ABS, 0),
    k("ACS", ACS, 0),
    k("ADVAL", ADVAL, 0),
    k("ASC", ASC, 0),
    k("ASN", ASN, 0),
    k("ATN", ATN, 0),
    k("AUTO", cmd::AUTO, N | T2),
    k("APPEND", cmd::APPEND, T2 | R),
    // B
    k("BGET", BGET, C),
    k("BPUT", BPUT, R | C),
    k("BEATS", stmt::BEATS, P | T2 | R),
    k("BEAT", func::BEAT, T2 | L | R),
    // C: COLOUR first, so `C.` is COLOUR.
    k("COLOUR", COLOUR, R),
    k("CALL", CALL, R),
    k("CASE", stmt::CASE, P | T2 | R),
    k("CHAIN", CHAIN, R),
    k("CHR$", CHR_S, 0),
    k("CLEAR", CLEAR, C),
    k("CLOSE", CLOSE, R | C),
    k("CLG", CLG, C),
    k("CLS", CLS, C),
    k("COS", COS, 0),
    k("COUNT", COUNT, C),
    k("CIRCLE", stmt::CIRCLE, P | T2 | R),
    k("CRUNCH", cmd::CRUNCH, T2 | R),
    k("COLOR", COLOUR, R),
    // D
    k("DATA", DATA, V),
    k("DEG", DEG, 0),
    k("DEF", DEF, 0),
    k("DELETE", cmd::DELETE, N | T2),
    k("DIV", DIV, 0),
    k("DIM", DIM, R),
    k("DRAW", DRAW, R),
    // E: the END... family before END.
    k("ENDPROC", ENDPROC, C),
    k("EDIT", cmd::EDIT, V | T2),
    k("ENDWHILE", ENDWHILE, C),
    k("ENDCASE", ENDCASE, C),
    k("ENDIF", ENDIF, C),
    k("END", END, C),
    k("ENVELOPE", ENVELOPE, R),
    k("ELSE", ELSE, N | L),
    k("EVAL", EVAL, 0),
    k("ERL", ERL, C),
    k("ERROR", ERROR, L),
    k("EOF", EOF, C),
    k("EOR", EOR, R),
    k("ERR", ERR, C),
    k("EXP", EXP, 0),
    k("EXT", EXT, C),
    k("ELLIPSE", stmt::ELLIPSE, P | T2 | R),
    // F
    k("FOR", FOR, R),
    k("FALSE", FALSE, C),
    k("FILL", stmt::FILL, P | T2 | R),
    k("FN", FN, R),
    // G
    k("GOTO", GOTO, N | R),
    k("GET$", GET_S, 0),
    k("GET", GET, 0),
    k("GOSUB", GOSUB, N | R),
    k("GCOL", GCOL, R),
    // H
    k("HIMEM", HIMEM, P | R | C),
    k("HELP", cmd::HELP, T2 | C),
    // I
    k("INPUT", INPUT, R),
    k("IF", IF, R),
    k("INKEY$", INKEY_S, 0),
    k("INKEY", INKEY, 0),
    k("INT", INT, 0),
    k("INSTR(", INSTR, B),
    k("INSTALL", cmd::INSTALL, T2 | R),
    // L
    k("LIST", cmd::LIST, N | T2),
    k("LINE", LINE, R),
    k("LOAD", cmd::LOAD, R | T2),
    k("LOMEM", LOMEM, P | R | C),
    k("LOCAL", LOCAL, R),
    k("LEFT$(", LEFT_S, B),
    k("LEN", LEN, 0),
    k("LET", LET, L),
    k("LOG", LOG, 0),
    k("LN", LN, 0),
    k("LIBRARY", stmt::LIBRARY, P | T2 | R),
    k("LVAR", cmd::LVAR, T2 | C),
    // M
    k("MID$(", MID_S, B),
    k("MODE", MODE, R),
    k("MOD", MOD, 0),
    k("MOVE", MOVE, R),
    k("MOUSE", stmt::MOUSE, P | T2 | R),
    // N
    k("NEXT", NEXT, R),
    k("NEW", cmd::NEW, T2 | C),
    k("NOT", NOT, 0),
    // O: OFF before OF, OR after ORIGIN.
    k("OLD", cmd::OLD, T2 | C),
    k("ON", ON, R),
    k("OFF", OFF, 0),
    k("OF", OF, 0),
    k("ORIGIN", stmt::ORIGIN, P | T2 | R),
    k("OR", OR, R),
    k("OPENIN", OPENIN, 0),
    k("OPENOUT", OPENOUT, 0),
    k("OPENUP", OPENUP, 0),
    k("OSCLI", OSCLI, R),
    k("OTHERWISE", OTHERWISE, L),
    k("OVERLAY", stmt::OVERLAY, P | T2 | R),
    // P: POINT( before the POINT statement.
    k("PRINT", PRINT, R),
    k("PAGE", PAGE, P | R | C),
    k("PTR", PTR, P | R | C),
    k("PI", PI, C),
    k("PLOT", PLOT, R),
    k("POINT(", POINT, B),
    k("POINT", stmt::POINT, P | T2 | R),
    k("PROC", PROC, R),
    k("POS", POS, C),
    // Q
    k("QUIT", stmt::QUIT, P | T2 | C),
    // R
    k("RETURN", RETURN, C),
    k("REPEAT", REPEAT, 0),
    k("REPORT", REPORT, C),
    k("READ", READ, R),
    k("REM", REM, V),
    k("RUN", RUN, C),
    k("RAD", RAD, 0),
    k("RESTORE", RESTORE, N | R),
    k("RIGHT$(", RIGHT_S, B),
    k("RND", RND, C),
    k("RECTANGLE", stmt::RECTANGLE, P | T2 | R),
    k("RENUMBER", cmd::RENUMBER, N | T2),
    // S
    k("STEP", STEP, 0),
    k("SAVE", cmd::SAVE, T2 | R),
    k("SGN", SGN, 0),
    k("SIN", SIN, 0),
    k("SQR", SQR, 0),
    k("SOUND", SOUND, R),
    k("SPC", SPC, 0),
    k("STR$", STR_S, 0),
    k("STRING$(", STRING_S, B),
    k("STOP", STOP, C),
    k("STEREO", stmt::STEREO, P | T2 | R),
    k("SUM", func::SUM, T2 | L | R),
    k("SWAP", stmt::SWAP, P | T2 | R),
    k("SYS", stmt::SYS, P | T2 | R),
    // T: TO is not conditional, so TOP is TO + P.
    k("TAN", TAN, 0),
    k("TAB(", TAB, B),
    k("TEMPO", stmt::TEMPO, P | T2 | R),
    k("TEXTLOAD", cmd::TEXTLOAD, T2 | R),
    k("TEXTSAVE", cmd::TEXTSAVE, T2 | R),
    k("THEN", THEN, N | L),
    k("TIME", TIME, P | R | C),
    k("TINT", stmt::TINT, P | T2 | R),
    k("TO", TO, 0),
    k("TRACE", TRACE, N | R),
    k("TRUE", TRUE, C),
    k("TWINO", cmd::TWINO, T2 | R),
    k("TWIN", cmd::TWIN, T2 | C),
    // U
    k("UNTIL", UNTIL, R),
    k("USR", USR, 0),
    // V
    k("VDU", VDU, R),
    k("VAL", VAL, 0),
    k("VPOS", VPOS, C),
    k("VOICES", stmt::VOICES, P | T2 | R),
    k("VOICE", stmt::VOICE, P | T2 | R),
    // W
    k("WHILE", stmt::WHILE, P | T2 | R),
    k("WHEN", WHEN, R),
    k("WAIT", stmt::WAIT, P | T2 | C),
    k("WIDTH", WIDTH, R),
];

/// The keywords whose spelling starts with `first` (an uppercase letter), in table order.
pub fn keywords_starting_with(first: u8) -> &'static [Keyword] {
    let idx = index();
    if !first.is_ascii_uppercase() {
        return &[];
    }
    let (start, end) = idx.sections[(first - b'A') as usize];
    &KEYWORDS[start..end]
}

struct Index {
    sections: [(usize, usize); 26],
    one: [Option<&'static str>; 256],
    fns: [Option<&'static str>; 256],
    cmds: [Option<&'static str>; 256],
    stmts: [Option<&'static str>; 256],
}

fn index() -> &'static Index {
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut sections = [(0usize, 0usize); 26];
        let mut one = [None; 256];
        let mut fns = [None; 256];
        let mut cmds = [None; 256];
        let mut stmts = [None; 256];
        let mut i = 0;
        while i < KEYWORDS.len() {
            let letter = KEYWORDS[i].name.as_bytes()[0];
            let start = i;
            while i < KEYWORDS.len() && KEYWORDS[i].name.as_bytes()[0] == letter {
                i += 1;
            }
            sections[(letter - b'A') as usize] = (start, i);
        }
        // The first spelling of a token is the one LIST prints (COLOUR, not COLOR).
        for kw in KEYWORDS {
            let slot = match kw.escape() {
                None => &mut one[kw.byte as usize],
                Some(ESC_FN) => &mut fns[kw.byte as usize],
                Some(ESC_CMD) => &mut cmds[kw.byte as usize],
                Some(_) => &mut stmts[kw.byte as usize],
            };
            if slot.is_none() {
                *slot = Some(kw.name);
            }
            if kw.escape().is_none() && kw.flags & F_PSEUDO != 0 {
                one[(kw.byte + LEFT_OFFSET) as usize] = Some(kw.name);
            }
        }
        one[ELSE_BLOCK as usize] = Some("ELSE");
        stmts[stmt::INSTALL as usize] = Some("INSTALL");
        Index {
            sections,
            one,
            fns,
            cmds,
            stmts,
        }
    })
}

/// The LIST spelling of a one-byte token (&7F-&FF, except &8D and the escapes &C6-&C8).
pub fn one_byte_name(byte: u8) -> Option<&'static str> {
    index().one[byte as usize]
}

/// The LIST spelling of a two-byte token `escape, second`.
pub fn two_byte_name(escape: u8, second: u8) -> Option<&'static str> {
    let idx = index();
    match escape {
        ESC_FN => idx.fns[second as usize],
        ESC_CMD => idx.cmds[second as usize],
        ESC_STMT => idx.stmts[second as usize],
        _ => None,
    }
}

/// Whether `byte` is an escape introducing a two-byte token.
pub fn is_escape(byte: u8) -> bool {
    matches!(byte, ESC_FN | ESC_CMD | ESC_STMT)
}

/// Encodes a line number (0..=65279) as the three bytes that follow [`LINE_NUMBER`]. All three are
/// in &40..=&7F, so they never look like a CR or a token.
pub fn encode_line_number(n: u16) -> [u8; 3] {
    let lo = (n & 0xFF) as u8;
    let hi = (n >> 8) as u8;
    let b1 = (((lo & 0xC0) >> 2) | ((hi & 0xC0) >> 4)) ^ 0x54;
    [b1, (lo & 0x3F) | 0x40, (hi & 0x3F) | 0x40]
}

/// Decodes the three bytes after [`LINE_NUMBER`] back into a line number.
pub fn decode_line_number(b: [u8; 3]) -> u16 {
    let lo = ((b[0] << 2) & 0xC0) ^ b[1];
    let hi = (b[0] << 4) ^ b[2];
    u16::from_le_bytes([lo, hi])
}

/// The largest line number a program may have (&FEFF: a high byte of &FF marks the end).
pub const MAX_LINE_NUMBER: u16 = 65279;

/// Word characters: `A-Z a-z 0-9 _` and backquote. A conditional keyword is not a keyword before
/// one of these, and identifiers are runs of them.
#[inline(always)]
pub fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'`'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_number_encoding_matches_the_reference_example_and_round_trips() {
        assert_eq!(encode_line_number(10), [0x54, 0x4A, 0x40]);
        for n in 0..=MAX_LINE_NUMBER {
            let b = encode_line_number(n);
            assert!(b.iter().all(|x| (0x40..=0x7F).contains(x)), "{n}: {b:?}");
            assert_eq!(decode_line_number(b), n);
        }
    }

    #[test]
    fn table_is_grouped_by_first_letter_and_lists_first_spellings() {
        let mut seen = Vec::new();
        for kw in KEYWORDS {
            let c = kw.name.as_bytes()[0];
            if seen.last() != Some(&c) {
                assert!(!seen.contains(&c), "{} breaks the grouping", kw.name);
                seen.push(c);
            }
        }
        assert_eq!(one_byte_name(COLOUR), Some("COLOUR"));
        assert_eq!(one_byte_name(PTR_LEFT), Some("PTR"));
        assert_eq!(one_byte_name(ELSE_BLOCK), Some("ELSE"));
        assert_eq!(two_byte_name(ESC_STMT, stmt::POINT), Some("POINT"));
        assert_eq!(two_byte_name(ESC_CMD, cmd::INSTALL), Some("INSTALL"));
        assert_eq!(two_byte_name(ESC_FN, func::SUM), Some("SUM"));
        assert_eq!(one_byte_name(LINE_NUMBER), None);
        // Every one-byte token from &7F to &FF has a name except &8D and the three escapes.
        for b in 0x7F..=0xFFu8 {
            let expect = !(b == LINE_NUMBER || is_escape(b));
            assert_eq!(one_byte_name(b).is_some(), expect, "{b:#X}");
        }
    }
}
