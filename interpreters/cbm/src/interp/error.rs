//! The ROM's errors, named as it prints them (`?SYNTAX  ERROR IN 20`).

use crate::float::FloatError;

/// An error the interpreter raises: the ROM's error table (ERRTAB at $A19E), in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BasicError {
    TooManyFiles,
    FileOpen,
    FileNotOpen,
    FileNotFound,
    DeviceNotPresent,
    NotInputFile,
    NotOutputFile,
    MissingFileName,
    IllegalDeviceNumber,
    NextWithoutFor,
    Syntax,
    ReturnWithoutGosub,
    OutOfData,
    IllegalQuantity,
    Overflow,
    OutOfMemory,
    UndefdStatement,
    BadSubscript,
    RedimdArray,
    DivisionByZero,
    IllegalDirect,
    TypeMismatch,
    StringTooLong,
    FileData,
    FormulaTooComplex,
    CantContinue,
    UndefdFunction,
    Verify,
    Load,
}

impl BasicError {
    /// The name the ROM prints between `?` and `  ERROR`.
    pub fn name(self) -> &'static str {
        use BasicError::*;
        match self {
            TooManyFiles => "TOO MANY FILES",
            FileOpen => "FILE OPEN",
            FileNotOpen => "FILE NOT OPEN",
            FileNotFound => "FILE NOT FOUND",
            DeviceNotPresent => "DEVICE NOT PRESENT",
            NotInputFile => "NOT INPUT FILE",
            NotOutputFile => "NOT OUTPUT FILE",
            MissingFileName => "MISSING FILE NAME",
            IllegalDeviceNumber => "ILLEGAL DEVICE NUMBER",
            NextWithoutFor => "NEXT WITHOUT FOR",
            Syntax => "SYNTAX",
            ReturnWithoutGosub => "RETURN WITHOUT GOSUB",
            OutOfData => "OUT OF DATA",
            IllegalQuantity => "ILLEGAL QUANTITY",
            Overflow => "OVERFLOW",
            OutOfMemory => "OUT OF MEMORY",
            UndefdStatement => "UNDEF'D STATEMENT",
            BadSubscript => "BAD SUBSCRIPT",
            RedimdArray => "REDIM'D ARRAY",
            DivisionByZero => "DIVISION BY ZERO",
            IllegalDirect => "ILLEGAL DIRECT",
            TypeMismatch => "TYPE MISMATCH",
            StringTooLong => "STRING TOO LONG",
            FileData => "FILE DATA",
            FormulaTooComplex => "FORMULA TOO COMPLEX",
            CantContinue => "CAN'T CONTINUE",
            UndefdFunction => "UNDEF'D FUNCTION",
            Verify => "VERIFY",
            Load => "LOAD",
        }
    }
}

impl From<FloatError> for BasicError {
    fn from(e: FloatError) -> Self {
        match e {
            FloatError::Overflow => BasicError::Overflow,
            FloatError::DivisionByZero => BasicError::DivisionByZero,
            FloatError::IllegalQuantity => BasicError::IllegalQuantity,
        }
    }
}

/// Why execution stopped, other than the program running on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// An error, and the line it happened in (None in direct mode).
    Error(BasicError, Option<u16>),
    /// STOP or RUN/STOP: `BREAK IN n`.
    Break(Option<u16>),
    /// END, or the program ran off its last line.
    End,
    /// A machine-code call (SYS or USR) this interpreter cannot run: the address.
    MachineCode(&'static str, u16, Option<u16>),
}

impl Stop {
    /// The message as the ROM prints it (without the CR before it).
    pub fn message(&self) -> String {
        let at = |line: &Option<u16>| line.map(|l| format!(" IN {l}")).unwrap_or_default();
        match self {
            Stop::Error(e, line) => format!("?{}  ERROR{}", e.name(), at(line)),
            Stop::Break(line) => format!("BREAK{}", at(line)),
            Stop::End => String::new(),
            Stop::MachineCode(what, addr, line) => format!(
                "?{what} {addr} (${addr:04X}): MACHINE CODE IS NOT EMULATED{}",
                at(line)
            ),
        }
    }
}

pub type Result<T> = std::result::Result<T, BasicError>;
