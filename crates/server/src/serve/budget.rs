//! How fast one connection may type: a budget of bytes that refills with time, so that a client flooding the
//! server with keys waits for its own bytes to be taken instead of taking processor time from everyone else.
//!
//! Nothing is dropped: a connection over its budget is simply not read until the budget allows (its SSH client
//! then waits, as on any slow link). A person never notices: keys and mouse reports are a few bytes each and
//! a paste is at most [`crate::serve::input`]'s limit, which the burst covers whole.

use std::time::Duration;

use tokio::time::Instant;

/// Bytes a connection may send at once before it is slowed: the largest paste the game takes, whole.
pub const INPUT_BURST: f64 = 64.0 * 1024.0;
/// Bytes a second a connection may send after its burst: hundreds of keys a second, far past any typist.
pub const INPUT_RATE: f64 = 8.0 * 1024.0;

/// One connection's budget.
#[derive(Debug)]
pub struct InputBudget {
    /// Bytes it may send now without waiting; below zero when it has sent ahead of its budget.
    left: f64,
    refilled: Instant,
}

impl Default for InputBudget {
    fn default() -> Self {
        InputBudget {
            left: INPUT_BURST,
            refilled: Instant::now(),
        }
    }
}

impl InputBudget {
    /// Takes `bytes` from the budget at `now`; how long to wait before reading more, when it is overdrawn.
    pub fn spend(&mut self, bytes: usize, now: Instant) -> Option<Duration> {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.refilled = now;
        self.left = (self.left + elapsed * INPUT_RATE).min(INPUT_BURST) - bytes as f64;
        (self.left < 0.0).then(|| Duration::from_secs_f64(-self.left / INPUT_RATE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_and_a_whole_paste_never_wait() {
        let start = Instant::now();
        let mut budget = InputBudget::default();
        assert_eq!(budget.spend(64 * 1024, start), None, "a paste, whole");
        // Then a key every 10 ms for a minute: 300 bytes a second, far under the rate.
        for n in 1..=6000u32 {
            let at = start + Duration::from_millis(10 * u64::from(n)) + Duration::from_secs(8);
            assert_eq!(budget.spend(3, at), None);
        }
    }

    #[test]
    fn a_flood_waits_for_exactly_its_excess() {
        let start = Instant::now();
        let mut budget = InputBudget::default();
        assert_eq!(budget.spend(64 * 1024, start), None);
        // 16 KiB more at once: two seconds' worth of budget.
        let wait = budget.spend(16 * 1024, start).expect("overdrawn");
        assert!((wait.as_secs_f64() - 2.0).abs() < 1e-9, "{wait:?}");
        // Waited out, the budget is at zero: one more byte waits a little again.
        let later = start + wait;
        assert!(budget.spend(1, later).is_some());
        // A long quiet refills it to the burst, not beyond.
        let much_later = later + Duration::from_secs(3600);
        assert_eq!(budget.spend(64 * 1024, much_later), None);
        assert!(budget.spend(1, much_later).is_some());
    }
}
