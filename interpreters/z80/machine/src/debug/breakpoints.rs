//! Breakpoints and watchpoints, and the lookup tables the run loop tests.
//!
//! An address breakpoint costs one table lookup per instruction whatever its condition: the
//! condition is only evaluated when the PC is at the breakpoint's address. Watchpoints are a flag
//! table per address (and per port) that the run's [`Probe`] reads on each data access.

use std::cell::Cell;

use super::expr::Expr;
use crate::host::Probe;

/// Which accesses a watchpoint sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Both,
}

impl Access {
    fn bits(self) -> u8 {
        match self {
            Access::Read => 1,
            Access::Write => 2,
            Access::Both => 3,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Both => "access",
        }
    }
}

/// What a breakpoint watches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Stop before the instruction at this address.
    Exec(u16),
    /// Stop after an instruction accesses memory in `first..=last`.
    Memory { first: u16, last: u16, access: Access },
    /// Stop after an `IN`/`OUT` whose port's low byte (what the machine decodes) is `port`.
    Port { port: u8, access: Access },
}

#[derive(Clone, Debug)]
pub struct Breakpoint {
    pub id: u32,
    pub kind: Kind,
    /// How the user wrote the location (`checkWIN`, `prog.asm:12`, `Board..Board+41`).
    pub location: String,
    /// The condition's text and parsed form.
    pub condition: Option<(String, Expr)>,
    pub temporary: bool,
    pub enabled: bool,
    /// Times it stopped the program (with its condition true).
    pub hits: u64,
    /// Hits still to pass over without stopping (`ignore N COUNT`).
    pub ignore: u64,
}

/// A watchpoint hit, as the probe saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchHit {
    pub addr: u16,
    pub write: bool,
    pub io: bool,
    /// The byte written (writes only).
    pub value: u8,
    /// The byte the write replaced (writes only), as the bus saw it before the store.
    pub old: u8,
}

/// The breakpoint list and the tables derived from it.
pub struct Breakpoints {
    list: Vec<Breakpoint>,
    next_id: u32,
    /// Per address: an enabled exec breakpoint is there.
    exec: Box<[bool; 0x10000]>,
    probe: WatchProbe,
}

/// The probe the debugger runs with: flags per address and per port, and the first hit.
pub struct WatchProbe {
    mem: Box<[u8; 0x10000]>,
    ports: [u8; 256],
    /// Some enabled watchpoint sees memory reads (`rwatch`/`awatch` on memory).
    reads: bool,
    pub hit: Cell<Option<WatchHit>>,
}

/// The probe when no watchpoint sees memory reads (the usual case: `watch` is for writes): data
/// reads, the most frequent accesses, skip the table lookup.
pub struct WritesOnly<'a>(pub &'a WatchProbe);

impl Probe for WritesOnly<'_> {
    #[inline(always)]
    fn write(&self, addr: u16, value: u8, old: u8) -> bool {
        self.0.write(addr, value, old)
    }
    #[inline(always)]
    fn port(&self, port: u16, write: bool) -> bool {
        self.0.port(port, write)
    }
}

impl Probe for WatchProbe {
    #[inline(always)]
    fn read(&self, addr: u16) -> bool {
        if self.mem[addr as usize] & 1 != 0 {
            return self.record(WatchHit {
                addr,
                write: false,
                io: false,
                value: 0,
                old: 0,
            });
        }
        false
    }
    #[inline(always)]
    fn write(&self, addr: u16, value: u8, old: u8) -> bool {
        if self.mem[addr as usize] & 2 != 0 {
            return self.record(WatchHit {
                addr,
                write: true,
                io: false,
                value,
                old,
            });
        }
        false
    }
    #[inline(always)]
    fn port(&self, port: u16, write: bool) -> bool {
        if self.ports[port as u8 as usize] & if write { 2 } else { 1 } != 0 {
            return self.record(WatchHit {
                addr: port,
                write,
                io: true,
                value: 0,
                old: 0,
            });
        }
        false
    }
}

impl WatchProbe {
    /// Whether some enabled watchpoint sees memory reads (else [`WritesOnly`] serves).
    pub fn sees_reads(&self) -> bool {
        self.reads
    }

    fn record(&self, hit: WatchHit) -> bool {
        if self.hit.get().is_none() {
            self.hit.set(Some(hit));
        }
        true
    }
}

impl Default for Breakpoints {
    fn default() -> Self {
        Breakpoints::new()
    }
}

impl Breakpoints {
    pub fn new() -> Breakpoints {
        Breakpoints {
            list: vec![],
            next_id: 1,
            exec: vec![false; 0x10000].into_boxed_slice().try_into().expect("64K"),
            probe: WatchProbe {
                mem: vec![0u8; 0x10000].into_boxed_slice().try_into().expect("64K"),
                ports: [0; 256],
                reads: false,
                hit: Cell::new(None),
            },
        }
    }

    /// Adds a breakpoint and returns its number.
    pub fn add(
        &mut self,
        kind: Kind,
        location: String,
        condition: Option<(String, Expr)>,
        temporary: bool,
    ) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.list.push(Breakpoint {
            id,
            kind,
            location,
            condition,
            temporary,
            enabled: true,
            hits: 0,
            ignore: 0,
        });
        self.rebuild();
        id
    }

    pub fn list(&self) -> &[Breakpoint] {
        &self.list
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut Breakpoint> {
        self.list.iter_mut().find(|b| b.id == id)
    }

    /// Deletes one breakpoint, or all with `None`. False if there was no such number.
    pub fn delete(&mut self, id: Option<u32>) -> bool {
        let before = self.list.len();
        match id {
            Some(id) => self.list.retain(|b| b.id != id),
            None => self.list.clear(),
        }
        self.rebuild();
        id.is_none() || self.list.len() < before
    }

    /// Enables or disables a breakpoint (all with `None`). False if there was no such number.
    pub fn set_enabled(&mut self, id: Option<u32>, enabled: bool) -> bool {
        let mut found = id.is_none();
        for b in &mut self.list {
            if id.is_none_or(|id| b.id == id) {
                b.enabled = enabled;
                found = true;
            }
        }
        self.rebuild();
        found
    }

    /// Recomputes the lookup tables from the enabled breakpoints.
    pub fn rebuild(&mut self) {
        self.exec.fill(false);
        self.probe.mem.fill(0);
        self.probe.ports = [0; 256];
        self.probe.reads = false;
        for b in self.list.iter().filter(|b| b.enabled) {
            match b.kind {
                Kind::Exec(a) => self.exec[a as usize] = true,
                Kind::Memory { first, last, access } => {
                    for a in first..=last {
                        self.probe.mem[a as usize] |= access.bits();
                    }
                    self.probe.reads |= access != Access::Write;
                }
                Kind::Port { port, access } => self.probe.ports[port as usize] |= access.bits(),
            }
        }
    }

    /// Whether an enabled exec breakpoint is at `pc` (one lookup: the run loop's test).
    #[inline(always)]
    pub fn at(&self, pc: u16) -> bool {
        self.exec[pc as usize]
    }

    /// The enabled exec breakpoints at `pc`.
    pub fn exec_at(&self, pc: u16) -> impl Iterator<Item = &Breakpoint> {
        self.list
            .iter()
            .filter(move |b| b.enabled && b.kind == Kind::Exec(pc))
    }

    /// The watchpoints a hit matches.
    pub fn matching(&self, hit: &WatchHit) -> Vec<u32> {
        self.list
            .iter()
            .filter(|b| b.enabled)
            .filter(|b| match b.kind {
                Kind::Memory { first, last, access } if !hit.io => {
                    (first..=last).contains(&hit.addr) && access.bits() & if hit.write { 2 } else { 1 } != 0
                }
                Kind::Port { port, access } if hit.io => {
                    port == hit.addr as u8 && access.bits() & if hit.write { 2 } else { 1 } != 0
                }
                _ => false,
            })
            .map(|b| b.id)
            .collect()
    }

    pub fn probe(&self) -> &WatchProbe {
        &self.probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_enable_disable_and_delete() {
        let mut b = Breakpoints::new();
        let one = b.add(Kind::Exec(0x8000), "start".into(), None, false);
        let two = b.add(
            Kind::Memory {
                first: 0x9000,
                last: 0x9002,
                access: Access::Write,
            },
            "Board..Board+2".into(),
            None,
            false,
        );
        assert!(b.at(0x8000) && !b.at(0x8001));
        assert!(b.probe().write(0x9002, 1, 0) && !b.probe().read(0x9002));
        assert_eq!(
            b.matching(&WatchHit {
                addr: 0x9001,
                write: true,
                io: false,
                value: 0,
                old: 0
            }),
            vec![two]
        );
        assert!(b.set_enabled(Some(one), false));
        assert!(!b.at(0x8000));
        assert!(b.delete(Some(two)));
        assert!(!b.probe().write(0x9002, 1, 0));
        assert!(!b.delete(Some(two)), "already gone");
        assert!(!b.set_enabled(Some(99), true));
    }
}
