//! Values as expressions produce them.

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
