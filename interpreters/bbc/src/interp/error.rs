//! BASIC errors: the number ERR reports and the message REPORT$ gives.
//!
//! Numbers are RISC OS BASIC V's (`s/ErrorMsgs`). The texts are the classic BBC BASIC ones
//! ("No such variable", "No FOR") for the errors BBC BASIC II already had, and RISC OS
//! BASIC V's own texts for the ones it added (WHILE, CASE, block IF). RISC OS 3's message file
//! rewords some classic texts ("Unknown or missing variable"); docs/bbc-basic.md lists them.

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
    STOP = 0, "STOP";
    // BASIC V keeps FOR, REPEAT, WHILE and GOSUB on its stack with no count of its own (BASIC
    // II's "Too many FORs/GOSUBs/REPEATs" are gone): nesting them without end runs out of room,
    // as BBC BASIC (Z80) 5.00 says too (corpus 372, 373).
    NO_ROOM = 0, "No room";
    OUT_OF_RANGE = 1, "Out of range";
    MISTAKE = 4, "Mistake";
    MISSING_COMMA = 5, "Missing ,";
    TYPE_MISMATCH = 6, "Type mismatch";
    NO_FN = 7, "No FN";
    MISSING_QUOTE = 9, "Missing \"";
    BAD_DIM = 10, "Bad DIM";
    DIM_SPACE = 11, "DIM space";
    NOT_LOCAL = 12, "Not LOCAL";
    NO_PROC = 13, "No PROC";
    ARRAY = 14, "Array";
    SUBSCRIPT = 15, "Subscript";
    SYNTAX = 16, "Syntax error";
    ESCAPE = 17, "Escape";
    DIV_ZERO = 18, "Division by zero";
    STRING_TOO_LONG = 19, "String too long";
    TOO_BIG = 20, "Too big";
    NEG_ROOT = 21, "-ve root";
    LOG_RANGE = 22, "Log range";
    ACCURACY = 23, "Accuracy lost";
    EXP_RANGE = 24, "Exp range";
    NO_SUCH_VARIABLE = 26, "No such variable";
    MISSING_BRACKET = 27, "Missing )";
    BAD_HEX = 28, "Bad HEX";
    NO_SUCH_FN = 29, "No such FN/PROC";
    BAD_CALL = 30, "Bad call";
    ARGUMENTS = 31, "Arguments";
    NO_FOR = 32, "No FOR";
    CANT_MATCH_FOR = 33, "Can't match FOR";
    FOR_VARIABLE = 34, "FOR variable";
    STEP_ZERO = 35, "The step cannot be zero";
    NO_TO = 36, "No TO";
    NO_GOSUB = 38, "No GOSUB";
    ON_SYNTAX = 39, "ON syntax";
    ON_RANGE = 40, "ON range";
    NO_SUCH_LINE = 41, "No such line";
    OUT_OF_DATA = 42, "Out of DATA";
    NO_REPEAT = 43, "No REPEAT";
    MISSING_HASH = 45, "Missing #";
    NOT_IN_WHILE = 46, "Not in a WHILE loop";
    MISSING_ENDCASE = 47, "Missing ENDCASE";
    CASE_NO_OF = 48, "OF missing from CASE statement";
    MISSING_ENDIF = 49, "Missing ENDIF";
    DEEP_CALL = 37, "No room for function/procedure call";
    ADDRESS = 0, "Address out of range";
    UNSUPPORTED = 0, "Unsupported statement";
}
