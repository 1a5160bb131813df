//! The seam between a door and a player's connection: what the door hands in ([`ToGame`]: bytes, window
//! changes, the close), what it takes out ([`ToDoor`]: frames and the close), the [`Output`] frames are drawn
//! into, and the goodbye. The SSH door (the `crowned-ssh` crate) and the web door (`crowned-web`) each feed
//! one connection's bytes in and write its frames out; nothing behind this seam knows which door it is.
//!
//! A door outside this crate finds here all it may use of the server: the connection's seam, what it opens a
//! player's connection with ([`ConnectedPlayer`], [`Start`], [`serve_player`], [`rejoin`]), run under
//! [`supervise`], and the limits every door keeps ([`InputBudget`], [`Cut`], [`NotReady`]).

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::queue;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use tokio::sync::mpsc;

use crate::session::SessionEnd;

pub use super::Shared;
pub use super::budget::InputBudget;
pub use super::connected::ConnectedPlayer;
pub use super::cut::{Cut, CutStream};
pub use super::health::NotReady;
pub use super::player::{Start, serve as serve_player};
pub use super::seating::rejoin;
pub use super::supervise::{GameFailed, supervise};

/// Mouse reports for clicks and the wheel only (no motion: that would be a report per cell the pointer
/// crosses, over the network), in the SGR encoding, which has no limit on the column.
const MOUSE_ON: &[u8] = b"\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF: &[u8] = b"\x1b[?1006l\x1b[?1000l";

/// The largest window drawn: a client may claim any size, and a frame's memory grows with it.
pub const MAX_WIDTH: u16 = 400;
/// See [`MAX_WIDTH`].
pub const MAX_HEIGHT: u16 = 200;

/// A window size as drawn: within the limits above, and 80x24 for a client that says 0 (it does not know).
pub fn clamp_size(width: u32, height: u32) -> (u16, u16) {
    let clamp = |value: u32, fallback: u16, max: u16| match value {
        0 => fallback,
        v => v.min(u32::from(max)) as u16,
    };
    (clamp(width, 80, MAX_WIDTH), clamp(height, 24, MAX_HEIGHT))
}

/// What the connection tells its game.
#[derive(Debug)]
pub enum ToGame {
    /// Bytes the player typed.
    Bytes(Vec<u8>),
    /// The window changed size (already clamped).
    Resize(u16, u16),
    /// The player's side of the channel closed.
    Closed,
}

/// What a game asks of the door its player came by.
#[derive(Debug, PartialEq, Eq)]
pub enum ToDoor {
    /// Bytes for the player's terminal: a frame, or what starts or ends the game's screen.
    Bytes(Vec<u8>),
    /// The connection ends, with this exit status.
    Close(u32),
}

/// Where a game's frames go: its door's queue, which holds one frame at most. A client that stops reading holds
/// the game at its next frame (the door cuts it off past its stall limit), never a growing backlog.
pub struct Screen {
    out: mpsc::Sender<ToDoor>,
}

impl Screen {
    /// A screen, and the queue the door takes its frames from.
    pub fn new() -> (Screen, mpsc::Receiver<ToDoor>) {
        let (out, frames) = mpsc::channel(1);
        (Screen { out }, frames)
    }

    /// Sends `bytes`; `false` when the connection has gone (the door stopped taking frames: closed, or cut off
    /// for not taking them).
    async fn send(&self, bytes: Vec<u8>) -> bool {
        if bytes.is_empty() {
            return true;
        }
        self.out.send(ToDoor::Bytes(bytes)).await.is_ok()
    }

    /// Ends the connection with `status`.
    async fn close(&self, status: u32) {
        let _ = self.out.send(ToDoor::Close(status)).await;
    }
}

/// A frame's bytes, collected to go out as one message. The game keeps a second handle on the same buffer to
/// take each frame from (ratatui's backend does not lend its writer).
#[derive(Clone, Default)]
pub struct FrameBytes(Arc<Mutex<Vec<u8>>>);

impl FrameBytes {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Write for FrameBytes {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The terminal a connection's frames are drawn on.
pub type FrameTerminal = Terminal<CrosstermBackend<FrameBytes>>;

/// How a game on a connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// As the session ended: the player quit, the server stopped, the connection went, the engine failed.
    Session(SessionEnd),
    /// Nobody typed for the idle timeout: the game is put away (saved, as always) and the channel closed.
    Idle,
}

/// The interrupt signal's number: Ctrl-c ends the connection at once, wherever the player is.
pub const SIGINT: i32 = 2;
/// The termination signal's number: the server is shutting down.
pub const SIGTERM: i32 = 15;

/// What a player was doing when their connection ended: what the goodbye says is kept depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doing {
    /// In the lobby: no game.
    Lobby,
    /// Playing the engine; a guest's games are not kept.
    Engine {
        /// Whether the player is a guest.
        guest: bool,
    },
    /// Seated at a table.
    Playing,
    /// Watching a table.
    Watching,
}

/// What the server says as it shuts down to someone `doing` this.
fn shutting_down(doing: Doing) -> &'static str {
    match doing {
        Doing::Lobby => "crowned: the server is shutting down.\r\n",
        Doing::Engine { guest: false } => {
            "crowned: the server is shutting down; your game is saved.\r\n"
        }
        Doing::Engine { guest: true } => {
            "crowned: the server is shutting down; a guest's games are not kept.\r\n"
        }
        Doing::Playing => {
            "crowned: the server is shutting down; your game is kept, clocks and all: connect again when it \
             is back.\r\n"
        }
        Doing::Watching => {
            "crowned: the server is shutting down; the game you watched is kept and goes on when it is back.\r\n"
        }
    }
}

/// Says goodbye as `end` calls for to someone `doing` this, gives the player's screen back (main screen,
/// cursor, no mouse reports) and ends the connection.
pub async fn farewell(screen: &Screen, end: GameEnd, doing: Doing) {
    let (farewell, status): (&str, u32) = match end {
        // The connection has gone: there is nobody to tell.
        GameEnd::Session(SessionEnd::InputClosed) => return,
        GameEnd::Session(SessionEnd::Quit | SessionEnd::Signal(SIGINT)) => ("", 0),
        GameEnd::Session(SessionEnd::Signal(_)) => (shutting_down(doing), 0),
        GameEnd::Session(SessionEnd::EngineFailed) => (
            "crowned: the engine stopped after an error; your game is saved, and connecting again offers it.\r\n",
            1,
        ),
        GameEnd::Idle => (
            "crowned: no key for a long while, so the game was put away; it is saved, and connecting again \
             offers it.\r\n",
            0,
        ),
    };
    let _ = screen.send(farewell_bytes(farewell)).await;
    screen.close(status).await;
}

/// What gives the player's terminal back (no paste brackets or mouse reports, the main screen, the cursor),
/// then `message`.
pub fn farewell_bytes(message: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = queue!(bytes, DisableBracketedPaste, LeaveAlternateScreen, Show);
    bytes.extend_from_slice(MOUSE_OFF);
    bytes.extend_from_slice(message.as_bytes());
    bytes
}

/// Where frames are drawn and sent: the player's screen as ratatui sees it, and the door's queue.
pub struct Output {
    /// Where the frames go.
    pub screen: Screen,
    terminal: FrameTerminal,
    frames: FrameBytes,
}

impl Output {
    /// An output on `screen` of `width` x `height` cells.
    pub fn new(screen: Screen, (width, height): (u16, u16)) -> io::Result<Output> {
        let frames = FrameBytes::default();
        // A fixed viewport: the size comes from the channel, and nothing ever asks the client's terminal.
        let options = TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, width, height)),
        };
        let terminal = Terminal::with_options(CrosstermBackend::new(frames.clone()), options)
            .map_err(|e| io::Error::other(e.to_string()))?;
        Ok(Output {
            screen,
            terminal,
            frames,
        })
    }

    /// Switches the player's terminal to the game's screen (alternate screen, no cursor, paste brackets and
    /// mouse reports); `false` when the connection is gone.
    pub async fn start(&self) -> bool {
        let mut start = Vec::new();
        let _ = queue!(start, EnterAlternateScreen, Hide, EnableBracketedPaste);
        start.extend_from_slice(MOUSE_ON);
        self.screen.send(start).await
    }

    /// The size drawn at.
    pub fn size(&mut self) -> (u16, u16) {
        let area = self.terminal.get_frame().area();
        (area.width, area.height)
    }

    /// Draws with `draw` on the terminal and sends the changed cells; `false` when the connection is gone.
    pub async fn draw_part(
        &mut self,
        draw: impl FnOnce(&mut FrameTerminal) -> io::Result<()>,
    ) -> bool {
        if draw(&mut self.terminal).is_err() {
            return false;
        }
        self.screen.send(self.frames.take()).await
    }

    /// The window changed to `width` x `height` cells; `false` when the terminal cannot follow.
    pub fn resize(&mut self, width: u16, height: u16) -> bool {
        self.terminal.resize(Rect::new(0, 0, width, height)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_sizes_are_clamped() {
        assert_eq!(clamp_size(0, 0), (80, 24));
        assert_eq!(clamp_size(10_000, 10_000), (MAX_WIDTH, MAX_HEIGHT));
        assert_eq!(clamp_size(1, 1), (1, 1));
        assert_eq!(clamp_size(u32::MAX, 30), (MAX_WIDTH, 30));
    }
}
