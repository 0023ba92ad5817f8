//! Key events with virtual timestamps, and the held-key state that BBC INKEY(-n), the C64 keyboard
//! matrix and the Z80 controller port read.

use crate::clock::VirtualTime;

/// A key, as the machines see it. Letters and digits are `Char` (case as typed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Char(char),
    Left,
    Right,
    Up,
    Down,
    Return,
    Escape,
    Backspace,
    Delete,
    Tab,
    Home,
    End,
    /// Function keys F1..F12.
    F(u8),
    /// The NES-style controller's buttons, for the Z80 workbench machine.
    PadA,
    PadB,
    PadStart,
    PadSelect,
}

/// Press or release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyEventKind {
    Press,
    Release,
}

/// One key event at a virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    pub at: VirtualTime,
    pub key: Key,
    pub kind: KeyEventKind,
}

impl KeyEvent {
    pub fn press(at: VirtualTime, key: Key) -> Self {
        KeyEvent { at, key, kind: KeyEventKind::Press }
    }
    pub fn release(at: VirtualTime, key: Key) -> Self {
        KeyEvent { at, key, kind: KeyEventKind::Release }
    }
}

// HeldKeys (the held-key state) goes below.
