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
//! - [`HoldMode::AutoRepeat`]: ordinary terminals. A lone press is a **tap**: held for
//!   [`TAP_HOLD`] (50 ms, about two frames), so a game sees one press. A press of the same key
//!   that comes after the terminal's auto-repeat delay (learned from the presses: the gap before
//!   a repeat stream; 200 ms to 1 s until one has been seen) is its first auto-repeat, and from
//!   then the key is a **hold** until two and a half repeat intervals (learned too; 100 ms until
//!   seen) after the last repeat. A hold therefore reads as a tap, a gap until the first repeat,
//!   and then held until the repeats stop. A release event, if one does arrive, ends it at once.
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
    /// No release events: a lone press is a tap, held for [`TAP_HOLD`]; auto-repeat presses make
    /// it a hold until they stop.
    AutoRepeat,
}

/// In [`HoldMode::AutoRepeat`], how long a press with no repeat yet counts as held: about two
/// frames (two 50 Hz or 60 Hz frames see it, not three), so a tap reads as a tap: one column
/// in Tetris, one step of Connect-4's cursor.
pub const TAP_HOLD: u64 = 50_000;

/// In [`HoldMode::AutoRepeat`], how long after the last repeat press the key still counts as held
/// until the terminal's repeat rate has been seen: two to three typical repeat intervals (30-50
/// ms), so one late repeat does not drop the key.
pub const REPEAT_HOLD: u64 = 100_000;

/// The gap between a press and its first auto-repeat, until one has been seen: 200 ms to 1 s
/// covers the keyboard settings of the common systems (250-660 ms by default).
const DELAY_RANGE: (u64, u64) = (200_000, 1_000_000);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hold {
    /// Time of the first press of this tap or hold.
    first: VirtualTime,
    /// Time of the last press (the first, or the latest repeat).
    last: VirtualTime,
    /// Auto-repeat presses seen since the first press.
    repeats: u32,
}

/// The terminal's auto-repeat timing, learned from the presses themselves (it differs from one
/// system and keyboard setting to another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct RepeatTiming {
    /// The gap between a press and its first repeat, once a hold has shown it (µs).
    delay: Option<u64>,
    /// The gap between repeats, a running average, once seen (µs).
    rate: Option<u64>,
}

impl RepeatTiming {
    /// Whether a press `gap` µs after a lone press of the same key is that key's first
    /// auto-repeat rather than a new tap.
    fn is_first_repeat(&self, gap: u64) -> bool {
        match self.delay {
            // A quarter either way, plus slack for a busy terminal.
            Some(d) => gap >= d - d / 4 && gap <= d + d / 4 + 20_000,
            None => (DELAY_RANGE.0..=DELAY_RANGE.1).contains(&gap),
        }
    }

    /// How long after a repeat the key still counts as held: two and a half repeat intervals
    /// (never under a tap), so one late repeat does not drop it.
    fn repeat_hold(&self) -> u64 {
        self.rate
            .map_or(REPEAT_HOLD, |r| (r * 5 / 2).clamp(TAP_HOLD, 250_000))
    }
}

/// The set of keys currently held down, fed by key events and read by held-key scans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldKeys {
    mode: HoldMode,
    holds: BTreeMap<Key, Hold>,
    timing: RepeatTiming,
}

impl HeldKeys {
    pub fn new(mode: HoldMode) -> Self {
        HeldKeys {
            mode,
            holds: BTreeMap::new(),
            timing: RepeatTiming::default(),
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
            KeyEventKind::Press if self.mode == HoldMode::ReleaseEvents => {
                self.holds.entry(ev.key).or_insert(Hold {
                    first: ev.at,
                    last: ev.at,
                    repeats: 0,
                });
            }
            KeyEventKind::Press => self.auto_repeat_press(ev),
        }
    }

    /// A press in [`HoldMode::AutoRepeat`]: a new tap, the first auto-repeat after the
    /// terminal's delay, or one of the repeats that follow at its rate.
    fn auto_repeat_press(&mut self, ev: KeyEvent) {
        let at = ev.at;
        let fresh = Hold {
            first: at,
            last: at,
            repeats: 0,
        };
        let next = match self.holds.get(&ev.key).copied() {
            Some(h) => {
                let gap = at.as_micros().saturating_sub(h.last.as_micros());
                let held = self.hold_covers(&h, at);
                if h.repeats > 0 && held {
                    // A repeat of a hold: learn the rate, and the delay from the hold's first
                    // gap once the repeats that followed it confirm it was one.
                    self.timing.rate = Some(self.timing.rate.map_or(gap, |r| (r * 3 + gap) / 4));
                    if h.repeats == 1 {
                        let delay = h.last.as_micros() - h.first.as_micros();
                        if gap < delay / 2 {
                            self.timing.delay = Some(delay);
                        }
                    }
                    Hold {
                        last: at,
                        repeats: h.repeats.saturating_add(1),
                        ..h
                    }
                } else if h.repeats == 0 && (held || self.timing.is_first_repeat(gap)) {
                    Hold {
                        last: at,
                        repeats: 1,
                        ..h
                    }
                } else {
                    fresh
                }
            }
            None => fresh,
        };
        self.holds.insert(ev.key, next);
        // Forget keys no longer held and past the longest wait for a first repeat, so the map
        // stays as small as what is held.
        let holds = std::mem::take(&mut self.holds);
        self.holds = holds
            .into_iter()
            .filter(|(_, h)| {
                self.hold_covers(h, at) || at.as_micros() - h.last.as_micros() <= DELAY_RANGE.1 * 2
            })
            .collect();
    }

    fn hold_covers(&self, hold: &Hold, now: VirtualTime) -> bool {
        match self.mode {
            HoldMode::ReleaseEvents => true,
            HoldMode::AutoRepeat => {
                let span = if hold.repeats > 0 {
                    self.timing.repeat_hold()
                } else {
                    TAP_HOLD
                };
                now.as_micros() < hold.last.as_micros().saturating_add(span)
            }
        }
    }

    /// Whether `key` is held at time `now`.
    pub fn is_held(&self, key: Key, now: VirtualTime) -> bool {
        self.holds.get(&key).is_some_and(|h| self.hold_covers(h, now))
    }

    /// Every key held at time `now`, in [`Key`] order.
    pub fn held(&self, now: VirtualTime) -> Vec<Key> {
        self.holds
            .iter()
            .filter(|(_, h)| self.hold_covers(h, now))
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
    fn auto_repeat_lone_press_is_a_tap_of_two_frames() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        h.apply(KeyEvent::press(ms(1000), Key::Right));
        // Seen by the frames 20 and 40 ms later (50 Hz), or 17 and 33 ms (60 Hz), not the third.
        assert!(h.is_held(Key::Right, ms(1000)));
        assert!(h.is_held(Key::Right, ms(1040)));
        assert!(!h.is_held(Key::Right, ms(1050)));
        assert!(h.held(ms(1100)).is_empty());
    }

    /// A held key as a terminal sends it: a press, the first repeat `delay` ms later, then one
    /// every `rate` ms up to `until`. Returns the time of the last repeat.
    fn hold(h: &mut HeldKeys, key: Key, start: u64, delay: u64, rate: u64, until: u64) -> u64 {
        h.apply(KeyEvent::press(ms(start), key));
        let mut t = start + delay;
        let mut last = start;
        while t <= until {
            // Between repeats the key never reads as released: just before each repeat after
            // the first (which turns the tap into a hold) arrives, it still reads as down.
            if t > start + delay {
                assert!(h.is_held(key, ms(t - 1)), "released before the repeat at {t}");
            }
            h.apply(KeyEvent::press(ms(t), key));
            assert!(
                h.is_held(key, ms(t + rate - 1)),
                "dropped after the repeat at {t}"
            );
            last = t;
            t += rate;
        }
        last
    }

    #[test]
    fn auto_repeat_stream_is_a_hold_until_the_repeats_stop() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        // A typical held key: press, first repeat after 500 ms, then every 33 ms.
        let mut early = HeldKeys::new(HoldMode::AutoRepeat);
        early.apply(KeyEvent::press(ms(0), Key::Char('a')));
        // Until the first repeat nothing says it is a hold: a tap, then a gap.
        assert!(!early.is_held(Key::Char('a'), ms(100)));
        let last = hold(&mut h, Key::Char('a'), 0, 500, 33, 2000);
        // Released two and a half (learned) intervals after the last repeat.
        assert!(h.is_held(Key::Char('a'), ms(last + 80)));
        assert!(!h.is_held(Key::Char('a'), ms(last + 83)));
    }

    #[test]
    fn slow_repeat_rates_are_learned_and_do_not_flicker() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        // A slow keyboard setting: 700 ms delay, a repeat every 90 ms.
        let last = hold(&mut h, Key::Left, 0, 700, 90, 3000);
        assert!(h.is_held(Key::Left, ms(last + 200)));
        assert!(!h.is_held(Key::Left, ms(last + 225)));
    }

    #[test]
    fn quick_taps_are_separate_presses() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        // Three taps 150 ms apart: each is down, then up before the next.
        for i in 0..3 {
            let t = 1000 + i * 150;
            h.apply(KeyEvent::press(ms(t), Key::Right));
            assert!(h.is_held(Key::Right, ms(t + 20)), "tap {i}");
            assert!(!h.is_held(Key::Right, ms(t + 140)), "tap {i} still down");
        }
    }

    #[test]
    fn the_learned_delay_tells_a_tap_from_a_first_repeat() {
        let mut h = HeldKeys::new(HoldMode::AutoRepeat);
        // A hold teaches the delay (300 ms) and the rate (40 ms).
        let last = hold(&mut h, Key::Up, 0, 300, 40, 1000);
        // A tap, then another 600 ms later: outside 300 ms +- a quarter, so a new tap.
        let t = last + 1000;
        h.apply(KeyEvent::press(ms(t), Key::Up));
        h.apply(KeyEvent::press(ms(t + 600), Key::Up));
        assert!(!h.is_held(Key::Up, ms(t + 660)));
        // A press 300 ms after a tap is the first repeat of a hold: it stays down 100 ms.
        let t = t + 2000;
        h.apply(KeyEvent::press(ms(t), Key::Up));
        h.apply(KeyEvent::press(ms(t + 300), Key::Up));
        assert!(h.is_held(Key::Up, ms(t + 390)));
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
        h.apply(KeyEvent::press(ms(30), Key::Return));
        assert_eq!(h.held(ms(40)), vec![Key::Left, Key::Return]);
        assert_eq!(h.held(ms(60)), vec![Key::Return]);
        h.clear();
        assert!(h.held(ms(60)).is_empty());
    }
}
