//! When a table wakes up by itself: a flag falling, the running clock showing a new second, the time an absent
//! player has to come back showing a new second (or running out), and the clocks' note in the records.

use std::time::Duration;

use super::{NOTE_CLOCKS_EVERY, Table};

impl Table {
    /// When the running clock's flag falls.
    pub(super) fn flag_deadline(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let left = clock.until_flag(self.now)?;
        Some(self.now + left)
    }

    /// When the running clock next shows a new second, for the clocks on everyone's screen.
    pub(super) fn tick_deadline(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        // A flag that has fallen is the flag's wake-up: nothing more to tick (a flag the records could not take
        // yet waits for its retry; ticking meanwhile would wake the table again and again).
        let left = clock.until_flag(self.now).filter(|left| !left.is_zero())?;
        // The shown second (rounded up) changes once the fraction of a second left is used up; a tick is due at
        // once when none is left, as the second shown may have changed at this very moment, unsent (another
        // wake-up at the same instant came first).
        let into_second = Duration::from_nanos(u64::from(left.subsec_nanos()));
        Some(self.now + into_second + Duration::from_millis(1))
    }

    /// While a player is away from an unfinished game and someone is here to see it: when the time they have
    /// left to come back next shows a new second, or runs out. The moment is fixed by when they left, not by
    /// when the table last woke, so that the clocks' own ticks never put it off.
    pub(super) fn away_deadline(&self) -> Option<Duration> {
        if self.game.outcome().is_some() || self.everyone().is_empty() {
            return None;
        }
        let now = self.now;
        self.seats
            .iter()
            .flatten()
            .filter_map(|s| Some((s.away_since?, s.told_gone)))
            .filter_map(|(since, told_gone)| {
                let ends = since + self.config.grace;
                if now >= ends {
                    // Over: due at once until it has been told.
                    return (!told_gone).then_some(ends);
                }
                let next = since + Duration::from_secs(now.saturating_sub(since).as_secs() + 1);
                Some(next.min(ends))
            })
            .min()
    }

    /// While a recorded game's clock runs, the next moment the clocks are noted in the records. The moments are
    /// the same for every table (whole periods of [`NOTE_CLOCKS_EVERY`] since the server started: the table's
    /// time shifted by its `note_phase`), so that the recorder writes them together, in one transaction. It is
    /// the first such moment after the last note, not after now: when a tick or a countdown is handled at a
    /// moment a note was also due (the table wakes for one of them a time), the note comes at the next wake-up
    /// instead of a period later; were it counted from now, a clock's tick that keeps falling at the note's
    /// moment would put every note off, and a crash would cost the player the time since the last move.
    pub(super) fn note_deadline(&self) -> Option<Duration> {
        let running = self.clock.as_ref().is_some_and(|c| c.running().is_some());
        if !running || self.record.is_none() || self.game.outcome().is_some() {
            return None;
        }
        let period = NOTE_CLOCKS_EVERY.as_millis().max(1);
        let since = (self.noted + self.note_phase).as_millis();
        let next = (since / period + 1) * period;
        let next = Duration::from_millis(u64::try_from(next).unwrap_or(u64::MAX / 2));
        Some(next.saturating_sub(self.note_phase))
    }
}
