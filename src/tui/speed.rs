//! The status line's speed figure: virtual time run per wall-clock time, over the last second.
//!
//! Measured over a sliding window rather than since the start, so a slow start-up or a pause
//! does not drag the figure down for the rest of the run; and only while the machine runs, so
//! a program that has ended shows no figure instead of a falling one.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use retro_machine::VirtualTime;

/// How far back the figure looks.
const WINDOW: Duration = Duration::from_secs(1);
/// No figure until this much has been measured (a figure from two frames would jitter).
const MIN_SPAN: Duration = Duration::from_millis(500);

#[derive(Debug, Default)]
pub struct SpeedMeter {
    /// (wall time, virtual time) after recent frames, oldest first.
    samples: VecDeque<(Instant, VirtualTime)>,
}

impl SpeedMeter {
    pub fn new() -> SpeedMeter {
        SpeedMeter::default()
    }

    /// Notes that virtual time `now` was reached at wall time `at`.
    pub fn sample(&mut self, at: Instant, now: VirtualTime) {
        self.samples.push_back((at, now));
        // Keep one sample older than the window, so the window is always fully covered.
        while self.samples.len() > 2 && at.duration_since(self.samples[1].0) >= WINDOW {
            self.samples.pop_front();
        }
    }

    /// Forgets the history (after a pause, a resize, or when the machine stops).
    pub fn reset(&mut self) {
        self.samples.clear();
    }

    /// Speed in percent of real time, rounded to the nearest 5, once enough has been measured.
    pub fn percent(&self) -> Option<u32> {
        let (&(w0, v0), &(w1, v1)) = (self.samples.front()?, self.samples.back()?);
        let wall = w1.duration_since(w0);
        if wall < MIN_SPAN {
            return None;
        }
        let ratio = (v1.as_micros() - v0.as_micros()) as f64 / wall.as_micros() as f64;
        Some(((ratio * 20.0).round() * 5.0) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(meter: &mut SpeedMeter, start: Instant, frames: u64, wall_ms: u64, virt_ms: u64) {
        for i in 1..=frames {
            meter.sample(
                start + Duration::from_millis(i * wall_ms),
                VirtualTime::from_millis(i * virt_ms),
            );
        }
    }

    #[test]
    fn full_speed_reads_100_not_95() {
        // 50 Hz frames, each 20 ms of virtual time in 20 ms (and a hair more) of wall time.
        let mut m = SpeedMeter::new();
        let t0 = Instant::now();
        for i in 1..=100u64 {
            m.sample(
                t0 + Duration::from_micros(i * 20_050),
                VirtualTime::from_millis(i * 20),
            );
        }
        assert_eq!(m.percent(), Some(100));
    }

    #[test]
    fn half_speed_reads_50() {
        let mut m = SpeedMeter::new();
        run(&mut m, Instant::now(), 100, 40, 20);
        assert_eq!(m.percent(), Some(50));
    }

    #[test]
    fn a_slow_start_is_forgotten_after_a_second() {
        let mut m = SpeedMeter::new();
        let t0 = Instant::now();
        // Three seconds of wall time for the first frame (start-up), then full speed.
        m.sample(t0, VirtualTime::ZERO);
        m.sample(t0 + Duration::from_secs(3), VirtualTime::from_millis(20));
        run(&mut m, t0 + Duration::from_secs(3), 100, 20, 20);
        assert_eq!(m.percent(), Some(100));
    }

    #[test]
    fn no_figure_before_half_a_second_or_after_a_reset() {
        let mut m = SpeedMeter::new();
        let t0 = Instant::now();
        run(&mut m, t0, 10, 20, 20);
        assert_eq!(m.percent(), None);
        run(&mut m, t0, 50, 20, 20);
        assert!(m.percent().is_some());
        m.reset();
        assert_eq!(m.percent(), None);
    }
}
