//! Virtual time. Machines advance by frames; nothing in headless mode ever sleeps.

use std::fmt;
use std::ops::{Add, Sub};

/// A point in virtual time, in microseconds since the machine started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct VirtualTime(pub u64);

impl VirtualTime {
    pub const ZERO: VirtualTime = VirtualTime(0);
    pub const fn from_millis(ms: u64) -> Self {
        VirtualTime(ms * 1000)
    }
    pub const fn from_micros(us: u64) -> Self {
        VirtualTime(us)
    }
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    pub const fn as_millis(self) -> u64 {
        self.0 / 1000
    }
    /// Centiseconds, the unit of BBC BASIC's TIME and INKEY.
    pub const fn as_centis(self) -> u64 {
        self.0 / 10_000
    }
}

impl Add<u64> for VirtualTime {
    type Output = VirtualTime;
    /// Adds microseconds.
    fn add(self, us: u64) -> VirtualTime {
        VirtualTime(self.0 + us)
    }
}

impl Sub for VirtualTime {
    type Output = u64;
    /// Microseconds between two times (saturating at zero).
    fn sub(self, other: VirtualTime) -> u64 {
        self.0.saturating_sub(other.0)
    }
}

impl fmt::Display for VirtualTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:03}s", self.0 / 1_000_000, (self.0 / 1000) % 1000)
    }
}

/// A clock that ticks in whole frames of a fixed rate (50 Hz BBC VSync, 60 Hz C64 jiffies and the
/// Z80 workbench machine's frame interrupt). The frame count is the source of truth; the time is
/// derived from it so rounding never accumulates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VirtualClock {
    hz: u32,
    frames: u64,
}

impl VirtualClock {
    pub fn new(hz: u32) -> Self {
        assert!(hz > 0, "a clock needs a positive frame rate");
        VirtualClock { hz, frames: 0 }
    }
    pub fn hz(&self) -> u32 {
        self.hz
    }
    /// Frames elapsed since start.
    pub fn frames(&self) -> u64 {
        self.frames
    }
    /// Advances by one frame and returns the new time.
    pub fn tick(&mut self) -> VirtualTime {
        self.frames += 1;
        self.now()
    }
    /// The current virtual time.
    pub fn now(&self) -> VirtualTime {
        VirtualTime(self.frames * 1_000_000 / self.hz as u64)
    }
    /// Length of one frame in microseconds (rounded down).
    pub fn frame_micros(&self) -> u64 {
        1_000_000 / self.hz as u64
    }
    /// Advances whole frames until `now() >= t`.
    pub fn advance_to(&mut self, t: VirtualTime) {
        while self.now() < t {
            self.frames += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifty_hertz_frames_are_two_centiseconds() {
        let mut c = VirtualClock::new(50);
        c.tick();
        assert_eq!(c.now().as_centis(), 2);
        for _ in 0..49 {
            c.tick();
        }
        assert_eq!(c.now(), VirtualTime::from_millis(1000));
    }

    #[test]
    fn sixty_hertz_does_not_drift() {
        let mut c = VirtualClock::new(60);
        for _ in 0..60 * 60 {
            c.tick();
        }
        assert_eq!(c.now(), VirtualTime::from_millis(60_000));
    }

    #[test]
    fn advance_to_reaches_or_passes_the_target() {
        let mut c = VirtualClock::new(60);
        c.advance_to(VirtualTime::from_millis(100));
        assert!(c.now() >= VirtualTime::from_millis(100));
        assert_eq!(c.frames(), 6);
    }
}
