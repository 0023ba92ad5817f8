//! Key events with virtual timestamps, and the held-key state that BBC INKEY(-n), the C64 keyboard
//! matrix and the Z80 controller port read.
//!
//! # The held-key rule
//!
//! Machines scan keys as "is it down now?", but most terminals only report presses: holding a key
//! sends one press, then, after the keyboard's auto-repeat delay (typically about 500 ms), a press
//! every 30-50 ms until it is let go, and never a release. [`HeldKeys`] turns events into a held
//! state in one of two modes ([`HoldMode`]):
//!
//! - [`HoldMode::ReleaseEvents`]: the events include releases (key scripts, and terminals speaking
//!   the kitty keyboard protocol). A key is held from its press until its release.
//! - [`HoldMode::AutoRepeat`]: ordinary terminals. A key counts as held from a press until
//!   [`FIRST_HOLD`] (550 ms) after it if no repeat press arrives, which covers the auto-repeat
//!   delay; once a repeat has been seen, until [`REPEAT_HOLD`] (100 ms) after the last repeat,
//!   which covers two or three repeat intervals. So a tap reads as held for 550 ms, and a held key
//!   reads as released about 100 ms after it is let go. A release event, if one does arrive, ends
//!   the hold at once.
//!
//! Events must be applied in time order, as they become due; `now` in the queries is the machine's
//! current virtual time.

use std::collections::BTreeMap;

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
    PageUp,
    PageDown,
    /// A character typed with Alt (Option) held: the C64 reads it as the Commodore key with
    /// that key.
    Alt(char),
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
        KeyEvent {
            at,
            key,
            kind: KeyEventKind::Press,
        }
    }
    pub fn release(at: VirtualTime, key: Key) -> Self {
        KeyEvent {
            at,
            key,
            kind: KeyEventKind::Release,
        }
    }
}

/// How [`HeldKeys`] decides when a key is let go (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HoldMode {
    /// Held from a press until its release event.
    ReleaseEvents,
    /// Held until the terminal's auto-repeat stops: 550 ms after a lone press, 100 ms after the
    /// last repeat.
    AutoRepeat,
}

/// In [`HoldMode::AutoRepeat`], how long after a press without repeats the key still counts as
/// held: longer than a typical auto-repeat delay (~500 ms), so a held key never flickers off before
/// its first repeat.
pub const FIRST_HOLD: u64 = 550_000;

/// In [`HoldMode::AutoRepeat`], how long after the last repeat press the key still counts as held:
/// two to three typical repeat intervals (30-50 ms), so one late repeat does not drop the key.
pub const REPEAT_HOLD: u64 = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hold {
    /// Time of the last press (the first, or the latest repeat).
    last: VirtualTime,
    /// Whether a repeat press has arrived since the first press.
    repeated: bool,
}

/// The set of keys currently held down, fed by key events and read by held-key scans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldKeys {
    mode: HoldMode,
    holds: BTreeMap<Key, Hold>,
}

impl HeldKeys {
    pub fn new(mode: HoldMode) -> Self {
        HeldKeys {
            mode,
            holds: BTreeMap::new(),
        }
    }

    pub fn mode(&self) -> HoldMode {
        self.mode
    }

    /// Takes one event into account. Events must come in time order.
    pub fn apply(&mut self, ev: KeyEvent) {
        match ev.kind {
            KeyEventKind::Release => {
                self.holds.remove(&ev.key);
            }
            KeyEventKind::Press => {
                let repeat = self.is_held(ev.key, ev.at);
                let hold = self.holds.entry(ev.key).or_insert(Hold {
                    last: ev.at,
                    repeated: false,
                });
                // A press while the key is already held is an auto-repeat (in ReleaseEvents mode it
                // changes nothing, since only the release ends the hold).
                hold.repeated = repeat;
                hold.last = ev.at;
                if self.mode == HoldMode::AutoRepeat {
                    // Forget keys that have timed out, so the map stays as small as what is held.
                    let at = ev.at;
                    let mode = self.mode;
                    self.holds.retain(|_, h| Self::hold_covers(mode, h, at));
                }
            }
        }
    }

    fn hold_covers(mode: HoldMode, hold: &Hold, now: VirtualTime) -> bool {
        match mode {
            HoldMode::ReleaseEvents => true,
            HoldMode::AutoRepeat => {
                let span = if hold.repeated { REPEAT_HOLD } else { FIRST_HOLD };
                now.as_micros() < hold.last.as_micros().saturating_add(span)
            }
        }
    }

    /// Whether `key` is held at time `now`.
    pub fn is_held(&self, key: Key, now: VirtualTime) -> bool {
        self.holds
            .get(&key)
            .is_some_and(|h| Self::hold_covers(self.mode, h, now))
    }

    /// Every key held at time `now`, in [`Key`] order.
    pub fn held(&self, now: VirtualTime) -> Vec<Key> {
        self.holds
            .iter()
            .filter(|(_, h)| Self::hold_covers(self.mode, h, now))
            .map(|(&k, _)| k)
            .collect()
    }

    /// Forgets every key (for example when the terminal loses focus and releases may be lost).
    pub fn clear(&mut self) {
        self.holds.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> VirtualTime {
        VirtualTime::from_millis(n)
    }

    #[test]
    fn release_events_hold_from_press_to_release() {
        let mut h = HeldKeys::new(HoldMode::ReleaseEvents);
        h.apply(KeyEvent::press(ms(0), Key::Left));
        // No time limit: a key held for ten seconds without repeats is still down.
        assert!(h.is_held(Key::Left, ms(10_000)));
        h.apply(KeyEvent::press(ms(100), Key::Char('z')));
        assert_eq!(h.held(ms(200)), vec![Key::Char('z'), Key::Left]);
        h.apply(KeyEvent::release(ms(300), Key::Left));
        assert!(!h.is_held(Key::Left, ms(300)));
        assert!(h.is_held(Key::Char('z'), ms(300)));
        assert_eq!(h.held(ms(300)), vec![Key::Char('z')]);
    }

    #[test]
    fn release_of_a_key_never_pressed_is_harmless() {
        let mut h = HeldKeys::new(HoldMode::ReleaseEvents);
        h.apply(KeyEvent::release(ms(5), Key::Up));
        assert!(h.held(ms(5)).is_empty());
    }

    #[test]
    fn auto_repeat_lone_press_holds_550ms() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        h.apply(KeyEvent::press(ms(1000), Key::Right));
        assert!(h.is_held(Key::Right, ms(1000)));
        assert!(h.is_held(Key::Right, ms(1549)));
        assert!(!h.is_held(Key::Right, ms(1550)));
        assert!(h.held(ms(1600)).is_empty());
    }

    #[test]
    fn auto_repeat_stream_holds_until_100ms_after_last_repeat() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        // A typical held key: press, first repeat after 500 ms, then every 33 ms.
        h.apply(KeyEvent::press(ms(0), Key::Char('a')));
        let mut t = 500;
        while t <= 2000 {
            h.apply(KeyEvent::press(ms(t), Key::Char('a')));
            // Between repeats the key never reads as released.
            assert!(h.is_held(Key::Char('a'), ms(t + 32)));
            t += 33;
        }
        let last = t - 33;
        assert!(h.is_held(Key::Char('a'), ms(last + 99)));
        assert!(!h.is_held(Key::Char('a'), ms(last + 100)));
    }

    #[test]
    fn auto_repeat_press_after_timeout_is_a_fresh_press() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        h.apply(KeyEvent::press(ms(0), Key::Up));
        h.apply(KeyEvent::press(ms(500), Key::Up)); // repeat: now on the short timeout
        assert!(!h.is_held(Key::Up, ms(650)));
        h.apply(KeyEvent::press(ms(1000), Key::Up)); // a new tap: the long timeout again
        assert!(h.is_held(Key::Up, ms(1500)));
        assert!(!h.is_held(Key::Up, ms(1550)));
    }

    #[test]
    fn auto_repeat_release_event_ends_hold_at_once() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        h.apply(KeyEvent::press(ms(0), Key::Down));
        h.apply(KeyEvent::press(ms(10), Key::PadA));
        h.apply(KeyEvent::release(ms(20), Key::Down));
        assert_eq!(h.held(ms(30)), vec![Key::PadA]);
    }

    #[test]
    fn auto_repeat_keys_time_out_independently() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        h.apply(KeyEvent::press(ms(0), Key::Left));
        h.apply(KeyEvent::press(ms(400), Key::Return));
        assert_eq!(h.held(ms(500)), vec![Key::Left, Key::Return]);
        assert_eq!(h.held(ms(600)), vec![Key::Return]);
        h.clear();
        assert!(h.held(ms(600)).is_empty());
    }
}
