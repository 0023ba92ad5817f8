//! Values as expressions produce them, and appending to a string value (the `+` operator, and
//! the in-place fast paths of `strings`).

use super::error;
use super::{MAX_STRING, R};

/// An expression's value: a 32-bit integer, a 64-bit float or a string of up to 255 bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Int(i32),
    Float(f64),
    Str(Vec<u8>),
}

impl Default for Val {
    fn default() -> Self {
        Val::Int(0)
    }
}

/// Appends `y` to `x` as the `+` operator does: "String too long" (with `x` unchanged) beyond
/// [`MAX_STRING`]. Growing reserves room for the longest string at once.
#[inline]
pub(super) fn append(x: &mut Vec<u8>, y: &[u8]) -> R<()> {
    if x.len() + y.len() > MAX_STRING {
        return Err(error::STRING_TOO_LONG.into());
    }
    if x.capacity() < x.len() + y.len() {
        x.reserve_exact(MAX_STRING + 1 - x.len());
    }
    x.extend_from_slice(y);
    Ok(())
}
