//! Variables and arrays in memory, as PTRGET and the array code lay them out: simple variables
//! from VARTAB, 7 bytes each (two name bytes with the type in their top bits, then 5 bytes of
//! value); arrays from ARYTAB to STREND, each a header (name, total size, number of dimensions,
//! the dimensions big-endian, last subscript first) and its elements.

use super::error::{BasicError, Result};
use super::{Interp, zp};
use crate::float::{Fac, Packed};

/// The 6502 stack bytes the ROM's evaluator holds while it reads an array's first subscript,
/// and each later one (measured with the rest of expr.rs's table against cbmbasic).
const SUBSCRIPT_FIRST: usize = 12;
const SUBSCRIPT_NEXT: usize = 14;

/// A variable's type, from its name's suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Float,
    Int,
    Str,
}

/// A parsed variable name: the two name bytes as stored (type bits included) and the type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    pub n1: u8,
    pub n2: u8,
    pub kind: Kind,
}

impl Name {
    /// TI, ST and TI$, which read the clock and status instead of memory.
    pub fn is_reserved(self) -> bool {
        matches!((self.n1, self.n2), (b'T', b'I') | (b'S', b'T') | (b'T', 0xC9))
    }
}

/// Where a value lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Address of the value: 5 bytes (float), 2 (integer, high byte first) or 3 (string
    /// descriptor: length, address low, high).
    pub addr: u16,
    pub kind: Kind,
}

/// An array reference's subscripts (at most 255): the first few without allocating.
#[derive(Default)]
struct Subscripts {
    few: [u16; 4],
    n: usize,
    more: Vec<u16>,
}

impl Subscripts {
    fn len(&self) -> usize {
        self.n
    }

    fn push(&mut self, s: u16) {
        if self.n < self.few.len() {
            self.few[self.n] = s;
        } else {
            if self.more.is_empty() {
                self.more.extend_from_slice(&self.few);
            }
            self.more.push(s);
        }
        self.n += 1;
    }

    fn as_slice(&self) -> &[u16] {
        if self.n <= self.few.len() {
            &self.few[..self.n]
        } else {
            &self.more
        }
    }
}

fn elem_size(kind: Kind) -> usize {
    match kind {
        Kind::Float => 5,
        Kind::Int => 2,
        Kind::Str => 3,
    }
}

impl Interp {
    /// Reads a variable name at TXTPTR (a letter, then letters and digits of which the first
    /// counts, then `$` or `%`). Returns the name and whether `(` follows (not consumed).
    #[inline]
    pub(super) fn parse_name(&mut self, allow_int: bool) -> Result<(Name, bool)> {
        self.peekc();
        let at = self.state.pos;
        if let Some((name, paren, len)) = self.cache.name(at) {
            if name.kind == Kind::Int && !allow_int {
                return Err(BasicError::Syntax);
            }
            self.state.pos = at + len as usize;
            self.name_at = Some(at);
            return Ok((name, paren));
        }
        self.parse_name_text(allow_int)
    }

    /// [`Interp::parse_name`] from the text, remembering the result when it is in the program.
    #[inline(never)]
    fn parse_name_text(&mut self, allow_int: bool) -> Result<(Name, bool)> {
        let c = self.peekc();
        let at = self.state.pos;
        self.name_at = None;
        if !c.is_ascii_uppercase() {
            return Err(BasicError::Syntax);
        }
        self.state.pos += 1;
        let n1 = c;
        let mut n2 = 0;
        let c = self.peekc();
        if c.is_ascii_uppercase() || c.is_ascii_digit() {
            n2 = c;
            self.state.pos += 1;
            while {
                let c = self.peekc();
                c.is_ascii_uppercase() || c.is_ascii_digit()
            } {
                self.state.pos += 1;
            }
        }
        let mut name = Name {
            n1,
            n2,
            kind: Kind::Float,
        };
        match self.peekc() {
            b'$' => {
                self.state.pos += 1;
                name.n2 |= 0x80;
                name.kind = Kind::Str;
            }
            b'%' => {
                if !allow_int {
                    return Err(BasicError::Syntax);
                }
                self.state.pos += 1;
                name.n1 |= 0x80;
                name.n2 |= 0x80;
                name.kind = Kind::Int;
            }
            _ => {}
        }
        let paren = self.peekc() == b'(';
        if self.in_program(at)
            && let Ok(len) = u8::try_from(self.state.pos - at)
        {
            self.cache.set_name(at, name, paren, len);
            self.name_at = Some(at);
        }
        Ok((name, paren))
    }

    /// [`Interp::find_var`] for the name `parse_name` read last, remembering what it found in
    /// that name's cache slot.
    #[inline]
    pub(super) fn find_named_var(&mut self, n1: u8, n2: u8) -> Option<u16> {
        if let Some(at) = self.name_at
            && let Some(v) = self.cache.var(at, n1, n2)
        {
            return Some(v);
        }
        self.find_named_var_slow(n1, n2)
    }

    #[inline(never)]
    fn find_named_var_slow(&mut self, n1: u8, n2: u8) -> Option<u16> {
        let found = self.find_var(n1, n2);
        if let (Some(at), Some(v)) = (self.name_at, found) {
            self.cache.set_var(at, n1, n2, v);
        }
        found
    }

    /// The simple variable's entry address, if it exists.
    pub(super) fn find_var(&self, n1: u8, n2: u8) -> Option<u16> {
        let mut at = self.word(zp::VARTAB) as usize;
        let end = self.word(zp::ARYTAB) as usize;
        while at + 7 <= end {
            if self.mem[at] == n1 && self.mem[at + 1] == n2 {
                return Some(at as u16);
            }
            at += 7;
        }
        None
    }

    /// The simple variable's value address, creating it (zeroed) if needed: the arrays move up
    /// 7 bytes, as the ROM's BLTU moves them.
    #[inline]
    pub(super) fn var_addr(&mut self, n1: u8, n2: u8) -> Result<u16> {
        if let Some(at) = self.find_named_var(n1, n2) {
            return Ok(at + 2);
        }
        self.new_var(n1, n2)
    }

    /// Creates the simple variable (zeroed): the arrays move up 7 bytes, as the ROM's BLTU
    /// moves them.
    #[inline(never)]
    fn new_var(&mut self, n1: u8, n2: u8) -> Result<u16> {
        let arytab = self.word(zp::ARYTAB) as usize;
        let strend = self.word(zp::STREND) as usize;
        self.reserve(7)?;
        self.mem.copy_within(arytab..strend, arytab + 7);
        self.mem[arytab] = n1;
        self.mem[arytab + 1] = n2;
        self.mem[arytab + 2..arytab + 7].fill(0);
        self.set_word(zp::ARYTAB, (arytab + 7) as u16);
        self.set_word(zp::STREND, (strend + 7) as u16);
        if let Some(at) = self.name_at {
            self.cache.set_var(at, n1, n2, arytab as u16);
        }
        Ok(arytab as u16 + 2)
    }

    /// Whether the pointers every memory move trusts are in order: VARTAB <= ARYTAB <= STREND <=
    /// FRETOP. A program can POKE them (45-52) into any order; the ROM would then move blocks of
    /// memory with lengths that wrap around 64K (over the zero page and the stack), so here the
    /// move is refused with ?OUT OF MEMORY, REASON's verdict when STREND passes FRETOP. (MEMSIZ
    /// is left out: `POKE 56,48` before its CLR is a common way to lower the top of BASIC.)
    pub(super) fn pointers_in_order(&self) -> Result<()> {
        let chain = [zp::VARTAB, zp::ARYTAB, zp::STREND, zp::FRETOP].map(|p| self.word(p));
        if chain.windows(2).all(|w| w[0] <= w[1]) {
            Ok(())
        } else {
            Err(BasicError::OutOfMemory)
        }
    }

    /// Makes room for `n` more bytes between STREND and FRETOP, collecting garbage first if
    /// needed (REASON); ?OUT OF MEMORY if there is none.
    pub(super) fn reserve(&mut self, n: usize) -> Result<()> {
        self.pointers_in_order()?;
        let fits = |it: &Interp| it.word(zp::STREND) as usize + n < it.word(zp::FRETOP) as usize;
        if fits(self) {
            return Ok(());
        }
        self.collect_garbage();
        if fits(self) {
            Ok(())
        } else {
            Err(BasicError::OutOfMemory)
        }
    }

    /// A numeric value from memory.
    #[inline(always)]
    pub(super) fn load_num(&self, p: Place) -> Fac {
        let a = p.addr as usize;
        match p.kind {
            Kind::Int => Fac::from_i16(i16::from_be_bytes([self.mem[a], self.mem[a + 1]])),
            _ => Fac::from_packed(self.load_packed(a)),
        }
    }

    /// The 5 bytes of a float at `a`, read as [`Interp::store_packed`] writes them: the
    /// exponent byte alone and the four mantissa bytes as one word. A loop stores a variable
    /// and reads it back at once (NEXT, `K=K+1`); a read cut the way the write was cut takes
    /// the stored bytes straight from the store, where one that spans two writes waits.
    #[inline(always)]
    pub(super) fn load_packed(&self, a: usize) -> Packed {
        let [b1, b2, b3, b4]: [u8; 4] = self.mem[a + 1..a + 5].try_into().expect("4 bytes");
        Packed([self.mem[a], b1, b2, b3, b4])
    }

    /// Writes a float's 5 bytes at `a` (see [`Interp::load_packed`]).
    #[inline(always)]
    pub(super) fn store_packed(&mut self, a: usize, p: Packed) {
        let [b0, b1, b2, b3, b4] = p.0;
        self.mem[a] = b0;
        self.mem[a + 1..a + 5].copy_from_slice(&[b1, b2, b3, b4]);
    }

    /// Stores a number (rounded for floats, floored and range-checked for integers).
    #[inline]
    pub(super) fn store_num(&mut self, p: Place, v: Fac) -> Result<()> {
        let a = p.addr as usize;
        match p.kind {
            Kind::Int => {
                // LET rounds the FAC before AYINT (ROUND_FAC), unlike INT.
                let i = v.to_int_variable()?;
                self.mem[a..a + 2].copy_from_slice(&i.to_be_bytes());
            }
            Kind::Float => {
                let packed = v.to_packed()?;
                self.store_packed(a, packed);
            }
            Kind::Str => return Err(BasicError::TypeMismatch),
        }
        Ok(())
    }

    /// A variable reference at TXTPTR for assignment (LET, FOR, READ, INPUT, GET): a simple
    /// variable or an array element, created as needed. TI, ST (and TI$ outside LET) are ?SYNTAX.
    pub(super) fn target(&mut self) -> Result<(Name, Place)> {
        let (name, paren) = self.parse_name(true)?;
        if paren {
            let addr = self.array_elem(name)?;
            return Ok((
                name,
                Place {
                    addr,
                    kind: name.kind,
                },
            ));
        }
        let addr = self.var_addr(name.n1, name.n2)?;
        Ok((
            name,
            Place {
                addr,
                kind: name.kind,
            },
        ))
    }

    /// Parses `(i, j, ...)` at TXTPTR and returns the element's address, dimensioning the array
    /// to 10 in each dimension if it does not exist.
    pub(super) fn array_elem(&mut self, name: Name) -> Result<u16> {
        if let Some(addr) = self.array_elem_one(name) {
            return addr;
        }
        let mut subs = Subscripts::default();
        self.subscripts(&mut subs)?;
        let subs = subs.as_slice();
        let n = subs.len();
        let arr = match self.find_array(name) {
            Some(a) => a,
            None => self.make_array(name, &vec![11u16; n])?,
        };
        let ndims = self.mem[arr + 4] as usize;
        if ndims != subs.len() {
            return Err(BasicError::BadSubscript);
        }
        // Dimensions are stored last subscript first; the first subscript varies fastest.
        let mut offset: usize = 0;
        for (k, &s) in subs.iter().enumerate().rev() {
            let d = arr + 5 + 2 * (ndims - 1 - k);
            let size = u16::from_be_bytes([self.mem[d], self.mem[d + 1]]) as usize;
            if s as usize >= size {
                return Err(BasicError::BadSubscript);
            }
            offset = offset * size + s as usize;
        }
        let base = arr + 5 + 2 * ndims;
        Ok((base + offset * elem_size(name.kind)) as u16)
    }

    /// [`Interp::array_elem`]'s commonest case the short way: an array that exists with one
    /// dimension, and one subscript that the text cache knows (a number, or a simple variable
    /// read there before) followed by `)`. The same stack check, value, errors and TXTPTR as
    /// the long way; None (nothing read) when the case is another.
    #[inline]
    fn array_elem_one(&mut self, name: Name) -> Option<Result<u16>> {
        let open = self.state.pos;
        if self.mem[open] != b'(' {
            return None;
        }
        self.state.pos = open + 1;
        self.peekc();
        if let Some(v) = self.cached_subscript(SUBSCRIPT_FIRST)
            && self.peekc() == b')'
            && let Some(arr) = self.find_array(name)
            && self.mem[arr + 4] == 1
        {
            let s = match v.to_nonneg_i16() {
                Ok(s) => s as usize,
                Err(e) => return Some(Err(e.into())),
            };
            self.state.pos += 1;
            let size = u16::from_be_bytes([self.mem[arr + 5], self.mem[arr + 6]]) as usize;
            if s >= size {
                return Some(Err(BasicError::BadSubscript));
            }
            return Some(Ok((arr + 7 + s * elem_size(name.kind)) as u16));
        }
        self.state.pos = open;
        None
    }

    /// `(i, j, ...)` into `subs`: each subscript a non-negative integer below 32768. Returns
    /// how many there are.
    fn subscripts(&mut self, subs: &mut Subscripts) -> Result<()> {
        self.expect(b'(')?;
        loop {
            let bytes = if subs.len() == 0 {
                SUBSCRIPT_FIRST
            } else {
                SUBSCRIPT_NEXT
            };
            let v = self.deeper(bytes, Interp::expr_num)?;
            if subs.len() == 255 {
                return Err(BasicError::BadSubscript);
            }
            subs.push(v.to_nonneg_i16()? as u16);
            match self.getc() {
                b',' => {}
                b')' => break,
                _ => return Err(BasicError::Syntax),
            }
        }
        Ok(())
    }

    fn find_array(&self, name: Name) -> Option<usize> {
        let mut at = self.word(zp::ARYTAB) as usize;
        let end = self.word(zp::STREND) as usize;
        while at + 5 <= end {
            if self.mem[at] == name.n1 && self.mem[at + 1] == name.n2 {
                return Some(at);
            }
            let size = self.word(at + 2) as usize;
            if size == 0 {
                return None;
            }
            at += size;
        }
        None
    }

    /// Creates an array with the given sizes (bound + 1 per subscript, in subscript order).
    fn make_array(&mut self, name: Name, sizes: &[u16]) -> Result<usize> {
        let header = 5 + 2 * sizes.len();
        let mut total: usize = elem_size(name.kind);
        for &s in sizes {
            total = total
                .checked_mul(s as usize)
                .filter(|&t| t < 0x10000)
                .ok_or(BasicError::OutOfMemory)?;
        }
        total += header;
        if total >= 0x10000 {
            return Err(BasicError::OutOfMemory);
        }
        self.reserve(total)?;
        let at = self.word(zp::STREND) as usize;
        self.mem[at..at + total].fill(0);
        self.mem[at] = name.n1;
        self.mem[at + 1] = name.n2;
        self.set_word(at + 2, total as u16);
        self.mem[at + 4] = sizes.len() as u8;
        for (i, &s) in sizes.iter().rev().enumerate() {
            self.mem[at + 5 + 2 * i..at + 7 + 2 * i].copy_from_slice(&s.to_be_bytes());
        }
        self.set_word(zp::STREND, (at + total) as u16);
        Ok(at)
    }

    /// DIM name(bounds): ?REDIM'D ARRAY if it exists.
    pub(super) fn dim_one(&mut self) -> Result<()> {
        let (name, paren) = self.parse_name(true)?;
        if !paren {
            // DIM of a simple variable just creates it.
            self.var_addr(name.n1, name.n2)?;
            return Ok(());
        }
        let mut subs = Subscripts::default();
        self.subscripts(&mut subs)?;
        let subs = subs.as_slice();
        if self.find_array(name).is_some() {
            return Err(BasicError::RedimdArray);
        }
        let sizes: Vec<u16> = subs.iter().map(|&s| s + 1).collect();
        self.make_array(name, &sizes)?;
        Ok(())
    }

    /// Every string descriptor's address: simple string variables, string array elements.
    pub(super) fn string_descriptors(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = self.word(zp::VARTAB) as usize;
        let arytab = self.word(zp::ARYTAB) as usize;
        while at + 7 <= arytab {
            if self.mem[at] & 0x80 == 0 && self.mem[at + 1] & 0x80 != 0 {
                out.push(at + 2);
            }
            at += 7;
        }
        let end = self.word(zp::STREND) as usize;
        while at + 5 <= end {
            let size = self.word(at + 2) as usize;
            if size == 0 {
                break;
            }
            if self.mem[at] & 0x80 == 0 && self.mem[at + 1] & 0x80 != 0 {
                let ndims = self.mem[at + 4] as usize;
                let mut e = at + 5 + 2 * ndims;
                while e + 3 <= at + size {
                    out.push(e);
                    e += 3;
                }
            }
            at += size;
        }
        out
    }
}
