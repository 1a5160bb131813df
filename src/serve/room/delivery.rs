//! How a room's news reaches the people in it: each through a bounded queue, so that a connection that stops
//! reading costs a fixed amount of memory. What cannot wait is dropped for that person alone; a state they miss
//! is made good by the newest one once their queue has room, so that they never stay on an old one.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::error::TrySendError;
use tokio::time::Instant;

use super::{Fingerprint, Room, Update, Updates};

/// How often a room tries again to bring someone who fell behind up to date.
const CATCH_UP_EVERY: Duration = Duration::from_millis(500);

/// What became of an update offered to a person's queue.
enum Delivery {
    Sent,
    /// Their queue is full: they are behind.
    Full,
    /// Their connection has gone.
    Gone,
}

/// Offers `update` to one queue; dropped when that person is behind (or gone).
pub(super) fn send_or_drop(updates: &Updates, update: Update) {
    let _ = deliver(updates, update);
}

fn deliver(updates: &Updates, update: Update) -> Delivery {
    // The last place in a queue is kept for the word that the seat was taken from another connection: a
    // connection that fell behind still hears it, and does not come back for its seat.
    if updates.capacity() <= 1 {
        return match updates.is_closed() {
            true => Delivery::Gone,
            false => Delivery::Full,
        };
    }
    match updates.try_send(update) {
        Ok(()) => Delivery::Sent,
        Err(TrySendError::Full(_)) => Delivery::Full,
        Err(TrySendError::Closed(_)) => Delivery::Gone,
    }
}

impl Room {
    /// Sends `update` to `who` alone (wherever they sit or watch from).
    pub(super) fn tell(&self, who: &Fingerprint, update: Update) {
        let seats = self
            .seats
            .iter()
            .flatten()
            .map(|s| (&s.who.fingerprint, &s.updates));
        let watchers = self.watchers.iter().map(|(w, u)| (w, u));
        for (_, updates) in seats.chain(watchers).filter(|(w, _)| *w == who) {
            let _ = deliver(updates, update.clone());
        }
    }

    /// The players here and the watchers, by fingerprint, with where their updates go.
    pub(super) fn everyone(&self) -> impl Iterator<Item = (&Fingerprint, &Updates)> {
        self.seats
            .iter()
            .flatten()
            .filter(|s| s.away_since.is_none())
            .map(|s| (&s.who.fingerprint, &s.updates))
            .chain(self.watchers.iter().map(|(w, u)| (w, u)))
    }

    /// Sends `update` to everyone here; it is dropped for those who are behind.
    pub(super) fn tell_everyone(&self, update: &Update) {
        for (_, updates) in self.everyone() {
            let _ = deliver(updates, update.clone());
        }
    }

    /// The room as it stands, to everyone; watchers whose connection has gone are forgotten.
    pub(super) fn broadcast_state(&mut self) {
        if self.unsettled() {
            return;
        }
        let state = Update::State(Arc::new(self.snapshot()));
        let mut behind = std::mem::take(&mut self.behind);
        for seat in self.seats.iter().flatten() {
            note(
                &mut behind,
                &seat.who.fingerprint,
                deliver(&seat.updates, state.clone()),
            );
        }
        self.watchers.retain(|(who, updates)| {
            let delivery = deliver(updates, state.clone());
            let gone = matches!(delivery, Delivery::Gone);
            note(&mut behind, who, delivery);
            !gone
        });
        self.behind = behind;
        // A player whose time to come back is over has now been told of, to everyone here.
        let grace = self.config.grace;
        for seat in self.seats.iter_mut().flatten() {
            if seat
                .away_since
                .is_some_and(|since| since.elapsed() >= grace)
            {
                seat.told_gone = true;
            }
        }
    }

    /// The clocks as they run, to everyone here (a state, which holds them, makes good a missed one).
    pub(super) fn send_clocks(&mut self) {
        let Some(clocks) = self.clocks_now() else {
            return;
        };
        let mut behind = std::mem::take(&mut self.behind);
        for (who, updates) in self.everyone() {
            if let Delivery::Full = deliver(updates, Update::Clocks(clocks)) {
                behind.insert(who.clone());
            }
        }
        self.behind = behind;
    }

    /// While someone is behind, when to try again to send them the newest state: a moment fixed when they fell
    /// behind (or at the last try), so that the room's other wake-ups never put it off.
    pub(super) fn catch_up_deadline(&mut self) -> Option<Instant> {
        if self.behind.is_empty() {
            self.catch_up_at = None;
        } else if self.catch_up_at.is_none() {
            self.catch_up_at = Some(Instant::now() + CATCH_UP_EVERY);
        }
        self.catch_up_at
    }

    /// Sends the newest state to those who missed one and now have room for it.
    pub(super) fn catch_up(&mut self) {
        self.catch_up_at = None;
        let state = Update::State(Arc::new(self.snapshot()));
        let mut behind = std::mem::take(&mut self.behind);
        let people: Vec<(Fingerprint, Updates)> = self
            .seats
            .iter()
            .flatten()
            .map(|s| (s.who.fingerprint.clone(), s.updates.clone()))
            .chain(self.watchers.iter().cloned())
            .filter(|(who, _)| behind.contains(who))
            .collect();
        behind.clear();
        for (who, updates) in people {
            note(&mut behind, &who, deliver(&updates, state.clone()));
        }
        self.behind = behind;
    }
}

/// Keeps `who` among those `behind` when a state could not reach them, and takes them out once one has.
fn note(behind: &mut HashSet<Fingerprint>, who: &Fingerprint, delivery: Delivery) {
    match delivery {
        Delivery::Full => {
            behind.insert(who.clone());
        }
        Delivery::Sent | Delivery::Gone => {
            behind.remove(who);
        }
    }
}
