//! Token bytes the interpreter dispatches on. The tokenizer's table ([`crate::tokens`]) is the
//! single source of truth; this module only gives the interpreter a short name for it.

pub use crate::tokens::*;

/// Characters that make up variable and PROC/FN names.
#[inline(always)]
pub fn is_word(b: u8) -> bool {
    is_word_char(b)
}
