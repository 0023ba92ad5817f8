//! BASIC errors: the number ERR reports and the message REPORT$ gives.
//!
//! Numbers and texts are RISC OS BASIC V's (BASIC module 1.31, the table in
//! ../shared/reference/bbc-basic.md): "Unknown or missing variable", "Not in a FOR loop",
//! "Number too big", not BBC BASIC II's shorter "No such variable", "No FOR", "Too big", which
//! BBC BASIC (Z80) and Brandy's forebears keep. The few that are not in that table (Type
//! mismatch, Out of range, No room for function/procedure call, and our own Address out of
//! range and Unsupported statement) say so in docs/bbc-basic.md.

use std::borrow::Cow;
use std::fmt;

/// A trappable BASIC error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicError {
    pub number: i32,
    pub message: Cow<'static, str>,
}

impl BasicError {
    pub const fn new(number: i32, message: &'static str) -> Self {
        BasicError {
            number,
            message: Cow::Borrowed(message),
        }
    }
    pub fn user(number: i32, message: String) -> Self {
        BasicError {
            number,
            message: Cow::Owned(message),
        }
    }
}

impl fmt::Display for BasicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

macro_rules! errors {
    ($($name:ident = $num:expr, $text:expr;)*) => {
        $(pub const $name: BasicError = BasicError::new($num, $text);)*
    };
}

errors! {
    STOP = 0, "Stopped";
    // RENUMBER with a step of 0, and other requests that make no sense.
    SILLY = 0, "Silly!";
    // BASIC V keeps FOR, REPEAT, WHILE and GOSUB on its stack with no count of its own (BASIC
    // II's "Too many FORs/GOSUBs/REPEATs" are gone): nesting them without end runs out of room,
    // as BBC BASIC (Z80) 5.00 says too (corpus 372, 373).
    NO_ROOM = 0, "No room";
    OUT_OF_RANGE = 1, "Out of range";
    MISTAKE = 4, "Mistake";
    MISSING_COMMA = 5, "Missing ,";
    TYPE_MISMATCH = 6, "Type mismatch";
    // `--strict` only: RISC OS's refusals of whole-array forms we otherwise accept.
    ARRAY_NEEDED = 6, "Type mismatch: array needed";
    ARRAYS_DIFFER = 6, "Type mismatch between arrays";
    NO_FN = 7, "Not in a function";
    MISSING_QUOTE = 9, "Missing \"";
    BAD_DIM = 10, "Bad DIM statement";
    REDIM = 10, "Arrays cannot be redimensioned";
    DIM_SPACE = 11, "No room for this dimension";
    NOT_LOCAL = 12, "Items can only be made local in a function or procedure";
    NO_PROC = 13, "Not in a procedure";
    ARRAY = 14, "Unknown array";
    UNDIMENSIONED = 14, "Undimensioned array";
    SUBSCRIPT = 15, "Subscript out of range";
    SUBSCRIPT_COUNT = 15, "Incorrect number of subscripts";
    SYNTAX = 16, "Syntax error";
    ESCAPE = 17, "Escape";
    DIV_ZERO = 18, "Division by zero";
    STRING_TOO_LONG = 19, "String too long";
    TOO_BIG = 20, "Number too big";
    ARC_RANGE = 20, "Number too big for arc Sine or arc Cosine";
    NEG_ROOT = 21, "Negative root";
    LOG_RANGE = 22, "Logarithm range";
    ACCURACY = 23, "Accuracy lost in Sine/Cosine/Tangent";
    EXP_RANGE = 24, "Exponent range";
    NO_SUCH_VARIABLE = 26, "Unknown or missing variable";
    MISSING_BRACKET = 27, "Missing )";
    MISSING_OPEN = 27, "Missing (";
    BAD_HEX = 28, "Bad Hex";
    NO_SUCH_FN = 29, "No such function/procedure";
    BAD_CALL = 30, "Bad call of function/procedure";
    ARGUMENTS = 31, "Arguments of function/procedure incorrect";
    NO_FOR = 32, "Not in a FOR loop";
    CANT_MATCH_FOR = 33, "Can't match FOR";
    FOR_VARIABLE = 34, "Bad FOR control variable";
    STEP_ZERO = 35, "The step cannot be zero";
    NO_TO = 36, "Missing TO";
    NO_GOSUB = 38, "Not in a subroutine";
    ON_SYNTAX = 39, "ON syntax";
    ON_RANGE = 40, "ON range";
    NO_SUCH_LINE = 41, "No such line";
    OUT_OF_DATA = 42, "Out of data";
    NO_REPEAT = 43, "Not in a REPEAT loop";
    MISSING_HASH = 45, "Missing #";
    NOT_IN_WHILE = 46, "Not in a WHILE loop";
    MISSING_ENDCASE = 47, "Missing ENDCASE";
    CASE_NO_OF = 48, "OF missing from CASE statement";
    MISSING_ENDIF = 49, "Missing ENDIF";
    DEEP_CALL = 37, "No room for function/procedure call";
    ADDRESS = 0, "Address out of range";
    UNSUPPORTED = 0, "Unsupported statement";
}
