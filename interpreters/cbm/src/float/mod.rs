//! The ROM's 5-byte floating point (8-bit exponent, 32-bit mantissa, sign), bit-exact.
