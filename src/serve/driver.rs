//! The one driver of every screen a connection shows: the lobby, a game (against the engine, at a table,
//! watched, or the problem trainer's), a tournament's screen and the TV's wait are each a [`Part`], and
//! [`Driver::drive`] runs whichever is shown. The driver owns what is the connection's rather than any screen's:
//! the player's typing (bytes parsed into keys, a lone escape told from the start of a sequence), window changes,
//! the idle timeout, Ctrl-c and the server's shutdown. A part owns what is its own: what it draws, the news it
//! waits for (a table's updates, the engine's reports, an event's pairings), its timer, and what its keys do.
//!
//! Each turn of the loop: the part settles (brings itself up to date, and may leave), is drawn, and is handed
//! the one thing that came first (the player's input, its news or its timer); what it answers says whether the
//! screen stays or is left, and with what.

use std::convert::Infallible;
use std::io;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until};

use super::door::{FrameTerminal, GameEnd, Output, SIGINT, SIGTERM, ToGame};
use super::input::{ByteInput, ESC_TIMEOUT};
use crate::app::InputEvent;
use crate::session::Ending;

/// What a part answers to what came: stay, stay with the player counted as active, or leave with this.
#[derive(Debug)]
pub enum Flow<X> {
    /// The screen stays.
    Stay,
    /// The screen stays, and what came counts as activity: the player is not idle while a game they watch
    /// moves, or while the event they wait in runs.
    Busy,
    /// The screen is left, with what it came to.
    Leave(X),
}

/// A screen a connection shows, as the [`Driver`] runs it.
pub trait Part {
    /// What the screen's own sources tell it ([`Infallible`] for a screen without any).
    type News;
    /// What leaving the screen comes to.
    type Exit;

    /// Brings the screen up to date before it is drawn (the lobby's lists, the event's standings); `Some` when
    /// the screen is to be left as it stands.
    fn settle(&mut self) -> impl Future<Output = Option<Self::Exit>> {
        std::future::ready(None)
    }

    /// Draws the screen.
    fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()>;

    /// The screen's next news. Cancel-safe: the driver drops it when the player types first.
    fn news(&mut self) -> impl Future<Output = Self::News>;

    /// When the screen's timer is due, if it has one.
    fn deadline(&self) -> Option<Instant> {
        None
    }

    /// Handles what the player typed (keys, mouse, resizes), Ctrl-c already taken care of.
    fn input(
        &mut self,
        events: Vec<InputEvent>,
        out: &mut Output,
    ) -> impl Future<Output = Flow<Self::Exit>>;

    /// Handles the screen's news.
    fn heard(
        &mut self,
        news: Self::News,
        out: &mut Output,
    ) -> impl Future<Output = Flow<Self::Exit>>;

    /// Handles the screen's timer, come at `now`.
    fn timer(&mut self, now: Instant) -> impl Future<Output = Flow<Self::Exit>> {
        let _ = now;
        std::future::ready(Flow::Stay)
    }

    /// The connection ends under the screen (it closed, the server is stopping, Ctrl-c, the idle timeout): what
    /// the screen must do first (a game is saved as it stands).
    fn end(&mut self, end: GameEnd) {
        let _ = end;
    }
}

/// News that never comes, for a screen without any.
pub async fn no_news() -> Infallible {
    std::future::pending().await
}

/// What came first in a turn.
enum Turn<T> {
    /// The player typed: the events to handle.
    Input(Vec<InputEvent>),
    /// The screen's own news.
    News(T),
    /// The screen's timer came (or a lone escape became the Esc key, which is then in the next input).
    Timer,
}

/// One connection's driver: its input, the server's shutdown, the player's typing and how long they may stay
/// idle. One per connection, whatever screens it goes through, so that an escape sequence split across a
/// change of screen is still read whole.
pub struct Driver {
    input: mpsc::Receiver<ToGame>,
    shutdown: watch::Receiver<bool>,
    typing: Typing,
    idle: Duration,
}

impl Driver {
    /// A driver of the connection whose messages come on `input`, ending at `shutdown` or after `idle` without
    /// a key.
    pub fn new(
        input: mpsc::Receiver<ToGame>,
        shutdown: watch::Receiver<bool>,
        idle: Duration,
    ) -> Driver {
        Driver {
            input,
            shutdown,
            typing: Typing::default(),
            idle,
        }
    }

    /// Runs `part` on `out` until it leaves (`Ok`, with what it came to) or the connection ends under it (`Err`:
    /// it closed, the server is shutting down, the player pressed Ctrl-c or stayed idle too long; the part has
    /// been told). A screen that opens counts as activity: it opened because the player chose it, or because
    /// the server sent them there.
    pub async fn drive<P: Part>(
        &mut self,
        out: &mut Output,
        part: &mut P,
    ) -> Result<P::Exit, GameEnd> {
        self.busy();
        loop {
            if let Some(exit) = part.settle().await {
                return Ok(exit);
            }
            if !out.draw_part(|terminal| part.draw(terminal)).await {
                let end = GameEnd::Session(Ending::InputClosed);
                part.end(end);
                return Err(end);
            }
            let turn = self.next(out, part.deadline(), part.news()).await;
            let flow = match turn {
                Ok(Turn::Input(events)) => part.input(events, out).await,
                Ok(Turn::News(news)) => part.heard(news, out).await,
                Ok(Turn::Timer) => part.timer(Instant::now()).await,
                Err(end) => {
                    part.end(end);
                    return Err(end);
                }
            };
            match flow {
                Flow::Stay => {}
                Flow::Busy => self.busy(),
                Flow::Leave(exit) => return Ok(exit),
            }
        }
    }

    /// Waits for the player's input, `news` or `timer`. `Err` when the connection ends. Window changes resize
    /// `out` on the way.
    async fn next<T>(
        &mut self,
        out: &mut Output,
        timer: Option<Instant>,
        news: impl Future<Output = T>,
    ) -> Result<Turn<T>, GameEnd> {
        let mut events = Vec::new();
        let wake = self.typing.wake(timer, self.idle);
        tokio::select! {
            message = self.input.recv() => {
                if !self.typing.take(message, &mut self.input, out, &mut events) {
                    return Err(GameEnd::Session(Ending::InputClosed));
                }
            }
            news = news => return Ok(Turn::News(news)),
            _ = self.shutdown.changed() => return Err(GameEnd::Session(Ending::Signal(SIGTERM))),
            () = sleep_until(wake) => {
                let now = Instant::now();
                self.typing.settle(now, &mut events);
                if now >= self.typing.last_input + self.idle {
                    return Err(GameEnd::Idle);
                }
                if events.is_empty() {
                    return Ok(Turn::Timer);
                }
            }
        }
        if interrupted(&events) {
            return Err(GameEnd::Session(Ending::Signal(SIGINT)));
        }
        Ok(Turn::Input(events))
    }

    /// The player counts as active from now.
    fn busy(&mut self) {
        self.typing.last_input = Instant::now();
    }
}

/// Whether `events` hold a Ctrl-c, which ends the connection at once whatever is queued before it.
fn interrupted(events: &[InputEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, InputEvent::Key(key) if key.is_interrupt()))
}

/// The player's typing, as it comes: bytes parsed into events, an escape waiting to be told from the start of a
/// sequence, and when they last typed.
struct Typing {
    input: ByteInput,
    /// When a lone escape counts as the Esc key, if one waits.
    esc_due: Option<Instant>,
    /// When the player last typed.
    last_input: Instant,
}

impl Default for Typing {
    fn default() -> Self {
        Typing {
            input: ByteInput::default(),
            esc_due: None,
            last_input: Instant::now(),
        }
    }
}

impl Typing {
    /// Takes `first` and everything else already waiting from the connection into `events` (window changes
    /// resize `out`); `false` when the connection has gone.
    fn take(
        &mut self,
        first: Option<ToGame>,
        input: &mut mpsc::Receiver<ToGame>,
        out: &mut Output,
        events: &mut Vec<InputEvent>,
    ) -> bool {
        let mut next = first;
        loop {
            match next {
                Some(ToGame::Bytes(bytes)) => {
                    self.last_input = Instant::now();
                    self.input.feed(&bytes, events);
                }
                Some(ToGame::Resize(w, h)) => {
                    if !out.resize(w, h) {
                        return false;
                    }
                    events.push(InputEvent::Resize {
                        width: w,
                        height: h,
                    });
                }
                Some(ToGame::Closed) | None => return false,
            }
            match input.try_recv() {
                Ok(message) => next = Some(message),
                Err(_) => break,
            }
        }
        self.esc_due = self
            .input
            .is_pending()
            .then(|| Instant::now() + ESC_TIMEOUT);
        true
    }

    /// When to wake up: at `timer` if one is set, when a lone escape becomes the Esc key, or when the player
    /// has been idle for `idle`, whichever comes first.
    fn wake(&self, timer: Option<Instant>, idle: Duration) -> Instant {
        let idle_at = self.last_input + idle;
        [timer, self.esc_due, Some(idle_at)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(idle_at)
    }

    /// At `now`: a lone escape whose time has come becomes the Esc key.
    fn settle(&mut self, now: Instant, events: &mut Vec<InputEvent>) {
        if self.esc_due.is_some_and(|due| due <= now) {
            self.input.flush(events);
            self.esc_due = None;
        }
    }
}
