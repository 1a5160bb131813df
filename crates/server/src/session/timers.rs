//! The wake-ups the app asked for ([`Effect::Wake`](crate::app::Effect::Wake)), each at its deadline.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::app::Timer;

/// The app's timers: asking again for one moves its deadline.
#[derive(Debug, Default)]
pub struct Timers(BTreeMap<Timer, Instant>);

impl Timers {
    /// Sets `timer` to come due `after` from `now`.
    pub fn set(&mut self, timer: Timer, now: Instant, after: Duration) {
        self.0.insert(timer, now + after);
    }

    /// The deadline of the timer due first.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.0.values().min().copied()
    }

    /// Takes the timers due at `now`, earliest first (they are forgotten: each came due once).
    pub fn take_due(&mut self, now: Instant) -> Vec<Timer> {
        let mut due: Vec<(Instant, Timer)> = self
            .0
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(timer, at)| (*at, *timer))
            .collect();
        due.sort();
        for (_, timer) in &due {
            self.0.remove(timer);
        }
        due.into_iter().map(|(_, timer)| timer).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_come_due_in_order_once_and_asking_again_moves_them() {
        let mut timers = Timers::default();
        let now = Instant::now();
        assert_eq!(timers.next_deadline(), None);
        timers.set(Timer::Pace, now, Duration::from_millis(30));
        timers.set(Timer::Animation, now, Duration::from_millis(10));
        assert_eq!(
            timers.next_deadline(),
            Some(now + Duration::from_millis(10))
        );
        assert!(timers.take_due(now).is_empty());
        timers.set(Timer::Animation, now, Duration::from_millis(50));
        assert_eq!(
            timers.next_deadline(),
            Some(now + Duration::from_millis(30))
        );
        let later = now + Duration::from_millis(60);
        assert_eq!(timers.take_due(later), vec![Timer::Pace, Timer::Animation]);
        assert!(timers.take_due(later).is_empty());
        assert_eq!(timers.next_deadline(), None);
    }
}
