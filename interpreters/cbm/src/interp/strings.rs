//! Strings as the ROM keeps them: descriptors (length, address) pointing into the program text or
//! into string space, which grows down from MEMSIZ to FRETOP; temporaries on a 3-entry stack;
//! a temporary at FRETOP is given back when it is used up (FRETMP); garbage collection packs the
//! strings still referenced against MEMSIZ, keeping their order.

use super::error::{BasicError, Result};
use super::{Interp, zp};

/// A string value: its descriptor and whether it is a temporary (on the temp stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Str {
    pub len: u8,
    pub addr: u16,
    pub temp: bool,
}

impl Interp {
    /// The bytes of a string.
    pub(super) fn str_bytes(&self, s: Str) -> &[u8] {
        let a = s.addr as usize;
        &self.mem[a..(a + s.len as usize).min(0x10000)]
    }

    /// Pushes a temporary descriptor (PUTNEW): ?FORMULA TOO COMPLEX beyond three.
    pub(super) fn push_temp(&mut self, len: u8, addr: u16) -> Result<Str> {
        if self.state.temps.len() >= 3 {
            return Err(BasicError::FormulaTooComplex);
        }
        self.state.temps.push((len, addr));
        Ok(Str {
            len,
            addr,
            temp: true,
        })
    }

    /// FRETMP: done with a string. A temporary leaves the temp stack, and if it is the last
    /// thing allocated its bytes go back to free space.
    pub(super) fn free_str(&mut self, s: Str) {
        if !s.temp {
            return;
        }
        if self.state.temps.last() == Some(&(s.len, s.addr)) {
            self.state.temps.pop();
            if s.addr == self.word(zp::FRETOP) {
                let top = self.word(zp::FRETOP) + u16::from(s.len);
                self.set_word(zp::FRETOP, top);
            }
        }
    }

    /// GETSPA: `len` bytes of string space, collecting garbage if they do not fit.
    pub(super) fn alloc_str(&mut self, len: u8) -> Result<u16> {
        self.pointers_in_order()?;
        let fits = |it: &Interp| {
            let top = it.word(zp::FRETOP) as usize;
            top >= len as usize && top - len as usize >= it.word(zp::STREND) as usize
        };
        if !fits(self) {
            self.collect_garbage();
            if !fits(self) {
                return Err(BasicError::OutOfMemory);
            }
        }
        let top = self.word(zp::FRETOP) - u16::from(len);
        self.set_word(zp::FRETOP, top);
        self.set_word(zp::FRESPC, top);
        Ok(top)
    }

    /// A new temporary string holding `bytes` (STRINI + copy + PUTNEW).
    pub(super) fn new_str(&mut self, bytes: &[u8]) -> Result<Str> {
        let len = u8::try_from(bytes.len()).map_err(|_| BasicError::StringTooLong)?;
        let addr = self.alloc_str(len)?;
        let a = addr as usize;
        self.mem[a..a + bytes.len()].copy_from_slice(bytes);
        self.push_temp(len, addr)
    }

    /// GARBAG: moves every live string in string space up against MEMSIZ, highest first.
    pub(super) fn collect_garbage(&mut self) {
        if self.pointers_in_order().is_err() {
            // Nothing is moved over pointers a program POKEd out of order (the caller's
            // allocation then fails with ?OUT OF MEMORY).
            return;
        }
        let strend = self.word(zp::STREND) as usize;
        let memsiz = self.word(zp::MEMSIZ) as usize;
        let in_space = |len: u8, addr: usize| len > 0 && addr >= strend && addr < memsiz;
        // (string address, length, where its descriptor is: Ok(memory) or Err(temp index)).
        let mut live: Vec<(usize, u8, std::result::Result<usize, usize>)> = Vec::new();
        for d in self.string_descriptors() {
            let len = self.mem[d];
            let addr = self.word(d + 1) as usize;
            if in_space(len, addr) {
                live.push((addr, len, Ok(d)));
            }
        }
        for (i, &(len, addr)) in self.state.temps.iter().enumerate() {
            if in_space(len, addr as usize) {
                live.push((addr as usize, len, Err(i)));
            }
        }
        live.sort_by_key(|l| std::cmp::Reverse(l.0));
        let mut top = memsiz;
        let mut last: Option<(usize, usize)> = None;
        for (addr, len, desc) in live {
            // Two descriptors of one string (a temp and the variable it came from) move once.
            let new = match last {
                Some((old, new)) if old == addr => new,
                _ => {
                    // MEMSIZ POKEd below the strings: what does not fit stays where it is.
                    let Some(t) = top.checked_sub(len as usize).filter(|&t| t >= strend) else {
                        continue;
                    };
                    top = t;
                    self.mem.copy_within(addr..addr + len as usize, top);
                    last = Some((addr, top));
                    top
                }
            };
            match desc {
                Ok(d) => self.set_word(d + 1, new as u16),
                Err(i) => self.state.temps[i].1 = new as u16,
            }
        }
        self.set_word(zp::FRETOP, top as u16);
    }

    /// Assigns a string to a descriptor (LET's PUTSTR): a string in the program text or a
    /// temporary is taken over as it is; another variable's string is copied.
    pub(super) fn assign_str(&mut self, desc: u16, s: Str) -> Result<()> {
        let mut s = s;
        let fretop = self.word(zp::FRETOP);
        if !s.temp && s.addr >= fretop && s.len > 0 {
            let bytes = self.str_bytes(s).to_vec();
            let addr = self.alloc_str(s.len)?;
            let a = addr as usize;
            self.mem[a..a + bytes.len()].copy_from_slice(&bytes);
            s = Str {
                len: s.len,
                addr,
                temp: false,
            };
        } else if s.temp && self.state.temps.last() == Some(&(s.len, s.addr)) {
            self.state.temps.pop();
        }
        let d = desc as usize;
        self.mem[d] = s.len;
        self.set_word(d + 1, s.addr);
        Ok(())
    }

    /// The string in a descriptor.
    pub(super) fn load_str(&self, desc: u16) -> Str {
        let d = desc as usize;
        Str {
            len: self.mem[d],
            addr: self.word(d + 1),
            temp: false,
        }
    }

    /// `a + b`: a new string, as CAT builds it (space first, then the operands given back).
    pub(super) fn concat(&mut self, a: Str, b: Str) -> Result<Str> {
        let len = a.len as usize + b.len as usize;
        if len > 255 {
            return Err(BasicError::StringTooLong);
        }
        let addr = self.alloc_str(len as u8)?;
        // A collection may have moved the operands: read them from the temp stack again.
        let (a, b) = self.refresh(a, b);
        let at = addr as usize;
        let a_bytes = self.str_bytes(a).to_vec();
        self.mem[at..at + a_bytes.len()].copy_from_slice(&a_bytes);
        self.free_str(b);
        let b_bytes = self.str_bytes(b).to_vec();
        self.mem[at + a_bytes.len()..at + len].copy_from_slice(&b_bytes);
        self.free_str(a);
        self.push_temp(len as u8, addr)
    }

    /// Re-reads temporaries' addresses after a garbage collection may have moved them.
    pub(super) fn refresh(&self, a: Str, b: Str) -> (Str, Str) {
        let fix = |s: Str, idx: Option<usize>| match idx {
            Some(i) if s.temp => Str {
                addr: self.state.temps[i].1,
                ..s
            },
            _ => s,
        };
        let n = self.state.temps.len();
        let ia = if a.temp && b.temp {
            n.checked_sub(2)
        } else if a.temp {
            n.checked_sub(1)
        } else {
            None
        };
        let ib = if b.temp { n.checked_sub(1) } else { None };
        (fix(a, ia), fix(b, ib))
    }

    /// A substring of `s` as a new temporary (LEFT$, RIGHT$, MID$): space first, then `s` is
    /// given back.
    pub(super) fn substr(&mut self, s: Str, start: usize, len: usize) -> Result<Str> {
        let addr = self.alloc_str(len as u8)?;
        let (s, _) = self.refresh(
            s,
            Str {
                len: 0,
                addr: 0,
                temp: false,
            },
        );
        self.free_str(s);
        let from = s.addr as usize + start;
        self.mem.copy_within(from..from + len, addr as usize);
        self.push_temp(len as u8, addr)
    }
}
