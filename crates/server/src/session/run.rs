//! The session loop for a front end that reads its input on threads and sends it down a channel (the local
//! terminal; tests).
//!
//! The loop sleeps until something happens (no polling, no redraw while idle), handles every event that is
//! waiting before drawing once, and ratatui sends only the cells that changed since the last frame. A request
//! to end that must not wait behind queued input (a signal, Ctrl-c) raises [`Urgent`], which the loop looks at
//! before every event.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::Backend;

use super::{Passthrough, Session, SessionEnd, Wakeup};

/// A request to end that must not wait behind queued input: a signal, or Ctrl-c read from the terminal. The
/// thread that sees it raises it at once; the loop looks before every event it handles, so the session ends
/// promptly however much input is waiting (a long paste, a burst of keys).
#[derive(Clone, Debug, Default)]
pub struct Urgent(Arc<AtomicI32>);

impl Urgent {
    /// What the flag holds for Ctrl-c (signal numbers are positive).
    const INTERRUPT: i32 = -1;

    /// Asks the session to end because of `signal`. The first request wins.
    pub fn signal(&self, signal: i32) {
        self.raise(signal);
    }

    /// Asks the session to end as the player's Ctrl-c does.
    pub fn interrupt(&self) {
        self.raise(Self::INTERRUPT);
    }

    fn raise(&self, code: i32) {
        let _ = self
            .0
            .compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// How the session must end, if it has been asked to.
    pub fn ending(&self) -> Option<SessionEnd> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            Self::INTERRUPT => Some(SessionEnd::Quit),
            signal => Some(SessionEnd::Signal(signal)),
        }
    }
}

/// Where the loop's events come from: the queue, and the flag that jumps it.
#[derive(Clone, Copy, Debug)]
pub struct Inbox<'a> {
    /// Everything that happens, in order.
    pub events: &'a Receiver<Wakeup>,
    /// A request to end that is handled before anything still queued.
    pub urgent: &'a Urgent,
}

/// Runs a started session until it ends, drawing on `terminal`. With every sender of the queue gone the session
/// ends as if its input had closed.
pub fn run<B: Backend + Passthrough>(
    terminal: &mut Terminal<B>,
    session: &mut Session,
    inbox: Inbox,
) -> io::Result<SessionEnd> {
    session.draw(terminal)?;
    loop {
        // Timers keep their deadlines across other events, so that keys never hold them back.
        let first = match session.next_deadline() {
            Some(at) => match inbox
                .events
                .recv_timeout(at.saturating_duration_since(Instant::now()))
            {
                Ok(event) => Some(event),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Wakeup::InputClosed),
            },
            None => Some(inbox.events.recv().unwrap_or(Wakeup::InputClosed)),
        };
        if let Some(ending) = inbox.urgent.ending() {
            session.end(ending);
            return Ok(ending);
        }
        if let Some(ending) = session.fire_timers(Instant::now()) {
            return Ok(ending);
        }
        // Everything already waiting is handled before the next frame is drawn.
        for event in first.into_iter().chain(inbox.events.try_iter()) {
            if let Some(ending) = inbox.urgent.ending() {
                session.end(ending);
                return Ok(ending);
            }
            if let Some(ending) = session.handle(event) {
                return Ok(ending);
            }
        }
        session.draw(terminal)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_request_to_end_wins() {
        let urgent = Urgent::default();
        assert_eq!(urgent.ending(), None);
        urgent.signal(15);
        urgent.interrupt();
        assert_eq!(urgent.ending(), Some(SessionEnd::Signal(15)));
        let urgent = Urgent::default();
        urgent.interrupt();
        urgent.signal(1);
        assert_eq!(urgent.ending(), Some(SessionEnd::Quit));
    }
}
