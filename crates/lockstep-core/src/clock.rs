//! Local clocks: `local = true + true * drift_ppm / 1e6 + offset`. A clock jump moves `offset`.
//!
//! Integer arithmetic only, so that native and wasm builds agree to the millisecond.

use serde::{Deserialize, Serialize};

/// One node's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Clock {
    /// Parts per million the clock runs fast (positive) or slow (negative).
    pub drift_ppm: i64,
    /// Constant offset in ms, moved by clock jumps.
    pub offset_ms: i64,
}

const MILLION: i128 = 1_000_000;

impl Clock {
    /// The local reading at true time `t`.
    pub fn local(&self, t: u64) -> i64 {
        // Floor division, so that a slow clock reads a whole millisecond only once it has one.
        let drifted = (i128::from(t) * (MILLION + i128::from(self.drift_ppm))).div_euclid(MILLION);
        (drifted + i128::from(self.offset_ms)) as i64
    }

    /// The earliest true time at or after `now` when the local clock reads at least `target`.
    pub fn true_time_at(&self, target: i64, now: u64) -> u64 {
        if self.local(now) >= target {
            return now;
        }
        // local(t) is monotonic in t (drift > -100%), so invert and correct rounding.
        let rate = MILLION + i128::from(self.drift_ppm);
        let want = i128::from(target) - i128::from(self.offset_ms);
        let mut t = (want * MILLION / rate).max(i128::from(now)) as u64;
        while self.local(t) < target {
            t += 1;
        }
        while t > now && self.local(t - 1) >= target {
            t -= 1;
        }
        t
    }

    /// The true time after `now` when `local_ms` have passed on this clock.
    pub fn after_local(&self, now: u64, local_ms: u64) -> u64 {
        self.true_time_at(self.local(now).saturating_add(local_ms as i64), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_clock_reads_true_time() {
        let c = Clock::default();
        assert_eq!(c.local(5000), 5000);
        assert_eq!(c.after_local(100, 5000), 5100);
    }

    #[test]
    fn a_fast_clock_reaches_a_deadline_early() {
        let c = Clock {
            drift_ppm: 100_000,
            offset_ms: 0,
        };
        assert_eq!(c.local(1000), 1100);
        // 5000 local ms pass in 4546 true ms at +10%.
        assert_eq!(c.after_local(0, 5000), 4546);
    }

    #[test]
    fn a_jump_forward_makes_deadlines_due_at_once() {
        let mut c = Clock::default();
        let deadline = c.local(0) + 5000;
        c.offset_ms += 6000;
        assert_eq!(c.true_time_at(deadline, 10), 10);
    }

    #[test]
    fn a_slow_clock_takes_longer() {
        let c = Clock {
            drift_ppm: -500_000,
            offset_ms: 0,
        };
        assert_eq!(c.after_local(0, 1000), 2000);
    }
}
