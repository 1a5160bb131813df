//! How a table's news reaches the people in it: each connection through a bounded queue, so that a connection
//! that stops reading costs a fixed amount of memory. What cannot wait is dropped for that connection alone; a
//! state it misses is made good by the newest one once its queue has room, so that it never stays on an old
//! one.

use std::collections::HashSet;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio::time::Instant;

use super::machine::{Conn, Update};

/// Where a person's updates go: a bounded queue (see [`UPDATES_QUEUE`]).
pub type Updates = mpsc::Sender<Update>;

/// A connection's [`Updates`], known without holding them open ([`mpsc::Sender::downgrade`]): which of a person's
/// connections has gone, when they have more than one (the table holds the only [`Updates`] of each).
pub type WeakUpdates = mpsc::WeakSender<Update>;

/// How many updates may wait for one person. A connection that falls this far behind misses what comes next
/// until it has caught up, and then the table sends it the newest state: it never holds memory that grows.
pub const UPDATES_QUEUE: usize = 64;

/// How often a table tries again to bring someone who fell behind up to date.
const CATCH_UP_EVERY: Duration = Duration::from_millis(500);

/// What became of an update offered to a queue.
enum Offered {
    Sent,
    /// The queue is full: its connection is behind.
    Full,
    /// The connection has gone.
    Gone,
}

/// The connections of one table, numbered for its state machine, with those that fell behind.
#[derive(Default)]
pub(super) struct Delivery {
    conns: Vec<(Conn, Updates)>,
    /// The number the next new connection gets.
    next: u64,
    /// The connections that missed a state (or the clocks) because their queue was full: they get the newest
    /// state when it has room.
    behind: HashSet<Conn>,
    /// When to try again to bring those behind up to date.
    catch_up_at: Option<Instant>,
}

impl Delivery {
    /// The number of the connection whose queue is `updates`: the one it has if the table knows it already.
    pub(super) fn conn_for(&mut self, updates: Updates) -> Conn {
        if let Some((conn, _)) = self.conns.iter().find(|(_, u)| u.same_channel(&updates)) {
            return *conn;
        }
        let conn = Conn(self.next);
        self.next += 1;
        self.conns.push((conn, updates));
        conn
    }

    /// The number of the connection `line` names, if the table still holds it.
    pub(super) fn conn_of(&self, line: &WeakUpdates) -> Option<Conn> {
        let line = line.upgrade()?;
        self.conns
            .iter()
            .find(|(_, u)| u.same_channel(&line))
            .map(|(conn, _)| *conn)
    }

    /// Lets go of the connections the table no longer sends to.
    pub(super) fn keep(&mut self, holds: impl Fn(Conn) -> bool) {
        self.conns.retain(|(conn, _)| holds(*conn));
        self.behind.retain(|conn| holds(*conn));
    }

    /// Offers `update` to connection `to`; the connection, when it has gone.
    pub(super) fn send(&mut self, to: Conn, update: Update) -> Option<Conn> {
        let updates = self.conns.iter().find(|(c, _)| *c == to).map(|(_, u)| u)?;
        // The word that the seat was taken from another connection goes into the last place in the queue, kept
        // for it: a connection that fell behind still hears it, and does not come back for its seat.
        if matches!(update, Update::TakenOver) {
            let _ = updates.try_send(update);
            return None;
        }
        let state = matches!(update, Update::State(_));
        let missed_counts = state || matches!(update, Update::Clocks(_));
        match offer(updates, update) {
            Offered::Sent => {
                if state {
                    self.behind.remove(&to);
                }
                None
            }
            Offered::Full => {
                crate::serve::metrics::update_dropped(crate::serve::metrics::Queue::Table);
                if missed_counts {
                    self.behind.insert(to);
                }
                None
            }
            Offered::Gone => {
                self.behind.remove(&to);
                Some(to)
            }
        }
    }

    /// While someone is behind, when to try again to send them the newest state: a moment fixed when they fell
    /// behind (or at the last try), so that the table's other wake-ups never put it off.
    pub(super) fn catch_up_deadline(&mut self) -> Option<Instant> {
        if self.behind.is_empty() {
            self.catch_up_at = None;
        } else if self.catch_up_at.is_none() {
            self.catch_up_at = Some(Instant::now() + CATCH_UP_EVERY);
        }
        self.catch_up_at
    }

    /// Sends `state`, the newest, to those who missed one and now have room for it.
    pub(super) fn catch_up(&mut self, state: &Update) {
        self.catch_up_at = None;
        let behind: Vec<Conn> = self.behind.iter().copied().collect();
        for conn in behind {
            self.send(conn, state.clone());
        }
    }
}

fn offer(updates: &Updates, update: Update) -> Offered {
    // The last place in a queue is kept for the word that the seat was taken from another connection.
    if updates.capacity() <= 1 {
        return match updates.is_closed() {
            true => Offered::Gone,
            false => Offered::Full,
        };
    }
    match updates.try_send(update) {
        Ok(()) => Offered::Sent,
        Err(TrySendError::Full(_)) => Offered::Full,
        Err(TrySendError::Closed(_)) => Offered::Gone,
    }
}
