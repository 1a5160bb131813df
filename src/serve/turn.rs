//! The one loop skeleton of the screens a connection shows between games (the lobby, a tournament's screen, the
//! TV's wait): draw, then wait for the player's input, the screen's own news or its timer, and end the
//! connection on its close, the server's shutdown, Ctrl-c or the idle timeout. Each screen keeps only what is
//! its own: what it draws, what its news is, and what its keys do.

use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until};

use super::play::{GameEnd, Output, SIGINT, SIGTERM, ToGame, Typing, interrupted};
use crate::app::InputEvent;
use crate::session::Ending;

/// What a screen's turn came to.
#[derive(Debug)]
pub enum Turn<T> {
    /// The player typed: the events (keys, mouse, resizes) to handle, Ctrl-c already taken care of.
    Input(Vec<InputEvent>),
    /// The screen's own news.
    News(T),
    /// The screen's timer came (or a lone escape became the Esc key, which is then in the next input).
    Timer,
}

/// A screen's wait for the player: their typing as it comes, and how long they may stay idle.
pub struct Waiting<'a> {
    /// What the connection sends.
    pub input: &'a mut mpsc::Receiver<ToGame>,
    /// The server's shutdown.
    pub shutdown: &'a mut watch::Receiver<bool>,
    /// The player's typing, and when they last typed.
    pub typing: Typing,
    /// How long the player may type nothing before the connection ends.
    pub idle: Duration,
}

impl<'a> Waiting<'a> {
    /// A wait on `input` and `shutdown`, ending after `idle` without a key.
    pub fn new(
        input: &'a mut mpsc::Receiver<ToGame>,
        shutdown: &'a mut watch::Receiver<bool>,
        idle: Duration,
    ) -> Waiting<'a> {
        Waiting {
            input,
            shutdown,
            typing: Typing::default(),
            idle,
        }
    }

    /// Waits for the player's input, `news` (never, for a screen without any: `std::future::pending()`), or
    /// `timer`. `Err` when the connection ends: it closed, the server is shutting down, the player pressed
    /// Ctrl-c or stayed idle too long. Window changes resize `out` on the way.
    pub async fn next<T>(
        &mut self,
        out: &mut Output,
        timer: Option<Instant>,
        news: impl Future<Output = T>,
    ) -> Result<Turn<T>, GameEnd> {
        let mut events = Vec::new();
        let wake = self.typing.wake(timer, self.idle);
        tokio::select! {
            message = self.input.recv() => {
                if !self.typing.take(message, self.input, out, &mut events) {
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

    /// The screen's news counts as activity: the player is not idle while it comes (an event that runs, a game
    /// being shown).
    pub fn busy(&mut self) {
        self.typing.last_input = Instant::now();
    }
}
