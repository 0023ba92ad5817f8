//! The file formats a BBC BASIC program comes in (RISC OS tokenized, BBC BASIC for Windows
//! tokenized, a text listing): telling them apart, reading any of them, saving in each.

use crate::bbcwin;
use crate::detokenize::latin1_to_string;
use crate::program::{Diagnostic, Program, ProgramError, list, tokenize_program};
use crate::tokenize::Mode;
use crate::tokens::CR;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A RISC OS tokenized program (first byte &0D, as RISC OS and Brandy decide).
    Tokenized,
    /// A program in the tokenized format of BBC BASIC for Windows, for SDL 2.0 and (Z80)
    /// ([`crate::bbcwin`]).
    BbcWin,
    /// A text listing.
    Text,
}

/// Tells the formats apart. RISC OS and Brandy decide by the first byte: &0D is a tokenized
/// program, anything else text. A BBC BASIC for Windows file is recognised by its chain of line
/// lengths, each leading to a CR, up to a zero length byte (a text file holds no NUL). Its first
/// byte is &0D when its first line is 13 bytes long; then it is read as RISC OS's only if it is not
/// a valid RISC OS program.
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.first() == Some(&CR) {
        if Program::from_bytes(bytes).is_err() && bbcwin::is_windows_program(bytes) {
            Format::BbcWin
        } else {
            Format::Tokenized
        }
    } else if bbcwin::is_windows_program(bytes) || looks_binary_windows(bytes) {
        Format::BbcWin
    } else {
        Format::Text
    }
}

/// A damaged BBC BASIC for Windows file (so its error is reported as one, not as text): its
/// first line's length byte leads to a CR, and it holds bytes no text listing has.
fn looks_binary_windows(bytes: &[u8]) -> bool {
    let first_line_ends = bytes
        .first()
        .is_some_and(|&len| len >= 4 && bytes.get(len as usize - 1) == Some(&CR));
    first_line_ends && bytes.iter().any(|&b| b == 0 || (0x0E..0x1B).contains(&b))
}

/// The formats a program can be saved in (`retro tok --format`, `retro bbc --format` for SAVE).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SaveFormat {
    /// RISC OS's tokenized format.
    #[default]
    RiscOs,
    /// The tokenized format of BBC BASIC for Windows, for SDL 2.0 and (Z80).
    BbcWin,
    /// A text listing, as LIST prints it.
    Text,
}

impl SaveFormat {
    /// The program's bytes in this format; `Err` says why it cannot be written in it.
    pub fn encode(self, program: &Program) -> Result<Vec<u8>, String> {
        match self {
            SaveFormat::RiscOs => Ok(program.to_bytes()),
            SaveFormat::BbcWin => bbcwin::to_bytes(program).map_err(|e| e.to_string()),
            SaveFormat::Text => Ok(list(program).chars().map(|c| c as u8).collect()),
        }
    }
}

/// Decodes a text listing's bytes: UTF-8 if they are valid UTF-8, otherwise Latin-1 (RISC OS's own
/// alphabet, which is what a listing saved on an Acorn machine holds).
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        // Editors on some systems start UTF-8 files with a byte-order mark; it is not program text.
        Ok(s) => s.strip_prefix('\u{FEFF}').unwrap_or(s).to_owned(),
        Err(_) => latin1_to_string(bytes),
    }
}

/// Reads a program file of either format: tokenized bytes as they are, a text listing tokenized
/// with `mode`.
pub fn read_program(bytes: &[u8], mode: Mode) -> Result<Program, ReadError> {
    match detect(bytes) {
        Format::Tokenized => Program::from_bytes(bytes).map_err(ReadError::Bad),
        Format::BbcWin => bbcwin::from_bytes(bytes).map_err(ReadError::Bad),
        Format::Text => {
            let text = decode_text(bytes);
            tokenize_program(&text, mode).map_err(|diagnostics| ReadError::Text { text, diagnostics })
        }
    }
}

/// Why [`read_program`] failed.
#[derive(Clone, Debug)]
pub enum ReadError {
    /// A tokenized file that is not a valid program.
    Bad(ProgramError),
    /// A text listing with mistakes; `text` is the decoded text the diagnostics point into.
    Text {
        /// The listing as decoded.
        text: String,
        /// The mistakes.
        diagnostics: Vec<Diagnostic>,
    },
}
