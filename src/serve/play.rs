//! One connection's game: a [`Session`] driven by the connection's bytes, window changes and engine reports,
//! and drawn into its [`Screen`]. Nothing here knows the door the player came by: the SSH door (see
//! `ssh_screen.rs`) feeds the bytes in and writes the frames out, and another door (a browser's) would do the
//! same.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::at_event::EventNews;
use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::queue;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep_until};

use super::ids::{Fingerprint, RoomCode};
use super::input::{ByteInput, ESC_TIMEOUT};
use super::room::{Command, Line, RoomHandle};
use crate::app::{InputEvent, TableEvent, TrainingNews};
use crate::engine::Report;
use crate::problems::check::Answer;
use crate::session::{Ending, Event, Session};

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
struct FrameBytes(Arc<Mutex<Vec<u8>>>);

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

type FrameTerminal = Terminal<CrosstermBackend<FrameBytes>>;

/// What a game needs besides its session.
pub struct Channels {
    /// What the connection tells it.
    pub input: mpsc::Receiver<ToGame>,
    /// The engine's reports for this session.
    pub engine: mpsc::UnboundedReceiver<Report>,
    /// The prover's answers to this session's problem trainer (at most one question is live at a time).
    pub proofs: mpsc::UnboundedReceiver<(u64, Answer)>,
    /// Where the problem trainer's decisions go to be kept, in a trainer session of a keyed player.
    pub trained: Option<mpsc::Sender<TrainingNews>>,
    /// Raised when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    /// The table the game is played at, for a game between people.
    pub table: Option<TableLink>,
    /// The code of the rematch the table's players and watchers were sent to, once one is agreed: the session
    /// at the old table ends, and the connection goes on to the new one.
    pub rematch: Option<RoomCode>,
    /// The code of the table whose room went away while the player was at it (its node died, or another node
    /// took it over): the session ends, and the connection finds the game again where it runs now.
    pub lost: Option<RoomCode>,
    /// Whether the player took the seat of the table they were at from another connection: this one goes to
    /// the lobby and says so.
    pub taken_over: bool,
    /// The event the player is entered in, whose next board takes them from the table they are at.
    pub event: Option<super::at_event::Entered>,
    /// The player's blocks and reports, for a game at a table.
    pub civility: Option<super::civility::Civility>,
    /// Whether the table watched is the TV's: its end is shown a moment, then the TV goes on to the next game.
    pub tv: bool,
    /// Set as the TV's game ended and the session with it: the connection goes on to the next game.
    pub tv_next: bool,
}

/// The event's next news for the player ([`super::at_event::Entered::next_news`]); never when they are in none.
async fn event_news(
    event: &mut Option<super::at_event::Entered>,
    until_finished: bool,
) -> Option<EventNews> {
    match event {
        Some(entered) => entered.next_news(until_finished).await,
        None => std::future::pending().await,
    }
}

/// A game's line to its table: where the player's requests go and where the table's news comes from.
pub struct TableLink {
    /// The room.
    pub room: RoomHandle,
    /// The code it is joined by.
    pub code: RoomCode,
    /// The player, by key fingerprint.
    pub who: Fingerprint,
    /// The room's updates for this player.
    pub updates: mpsc::Receiver<TableEvent>,
    /// The same updates as the room knows them, to say which connection leaves.
    pub line: Line,
}

/// The table's next news, or never when the game is not at a table (or the room has gone).
async fn table_news(table: &mut Option<TableLink>) -> Option<TableEvent> {
    match table.as_mut() {
        Some(link) => link.updates.recv().await,
        None => std::future::pending().await,
    }
}

impl Channels {
    /// Sends what the player asked of the table, and what the problem trainer decided to be kept; carries out
    /// what they asked about their opponent, and tells them.
    async fn send_requests(&mut self, session: &mut Session) {
        for request in session.take_conduct() {
            let told = match (self.civility.as_mut(), &self.table) {
                (Some(civility), Some(link)) => civility.carry_out(&link.code, request).await,
                _ => "blocking and reporting are for a game at a table".to_string(),
            };
            let _ = session.handle(Event::Table(TableEvent::Told(told)));
        }
        let news = session.take_training_news();
        if let Some(trained) = &self.trained {
            for news in news {
                // The queue is bounded: a client that makes decisions faster than the records take them (a
                // pasted stream of keys) loses the excess, not the server its memory.
                if trained.try_send(news).is_err() {
                    tracing::warn!(
                        "the problem trainer's queue to the records is full: news dropped"
                    );
                }
            }
        }
        let requests = session.take_requests();
        if let Some(link) = &self.table {
            for request in requests {
                link.room.ask(&link.who, request).await;
            }
        }
    }
}

/// How long a player whose event has finished sees how their last game ended before they are taken to the
/// event's table.
const EVENT_TABLE_AFTER: Duration = Duration::from_secs(3);

/// How a game on a connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// As the session ended: the player quit, the server stopped, the connection went, the engine failed.
    Session(Ending),
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
        GameEnd::Session(Ending::InputClosed) => return,
        GameEnd::Session(Ending::Quit | Ending::Signal(SIGINT)) => ("", 0),
        GameEnd::Session(Ending::Signal(_)) => (shutting_down(doing), 0),
        GameEnd::Session(Ending::EngineFailed) => (
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
pub(super) fn farewell_bytes(message: &str) -> Vec<u8> {
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

    /// Draws the session and sends the changed cells; `false` when the connection is gone.
    async fn draw(&mut self, session: &mut Session) -> bool {
        if session.draw(&mut self.terminal).is_err() {
            return false;
        }
        self.screen.send(self.frames.take()).await
    }

    /// Draws with `draw` and sends the changed cells; `false` when the connection is gone.
    pub async fn draw_with(&mut self, draw: impl FnOnce(&mut ratatui::Frame)) -> bool {
        if self.terminal.draw(draw).is_err() {
            return false;
        }
        self.screen.send(self.frames.take()).await
    }
}

/// The player's typing, as it comes: bytes parsed into events, an escape waiting to be told from the start of a
/// sequence, and when they last typed.
pub struct Typing {
    input: ByteInput,
    /// When a lone escape counts as the Esc key, if one waits.
    pub esc_due: Option<Instant>,
    /// When the player last typed.
    pub last_input: Instant,
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
    pub fn take(
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
                    if out.terminal.resize(Rect::new(0, 0, w, h)).is_err() {
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
    pub fn wake(&self, timer: Option<Instant>, idle: Duration) -> Instant {
        let idle_at = self.last_input + idle;
        [timer, self.esc_due, Some(idle_at)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(idle_at)
    }

    /// At `now`: a lone escape whose time has come becomes the Esc key.
    pub fn settle(&mut self, now: Instant, events: &mut Vec<InputEvent>) {
        if self.esc_due.is_some_and(|due| due <= now) {
            self.input.flush(events);
            self.esc_due = None;
        }
    }
}

/// Hands the session `events` in order; how it ended, if one of them ended it.
fn handle_all(
    session: &mut Session,
    events: impl IntoIterator<Item = InputEvent>,
) -> Option<Ending> {
    events
        .into_iter()
        .find_map(|event| session.handle(Event::Input(event)))
}

/// Whether `events` hold a Ctrl-c, which ends the connection at once whatever is queued before it.
pub fn interrupted(events: &[InputEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, InputEvent::Key(key) if key.is_interrupt()))
}

/// Runs the session until it ends: its ending, or `None` when it was put away for being idle. `typed_ahead`
/// (keys that came after the one that opened the game) go to it first. A game at a table is left (the seat kept
/// for the grace period) as it ends.
pub async fn run(
    session: &mut Session,
    channels: &mut Channels,
    out: &mut Output,
    idle: Duration,
    typed_ahead: Vec<InputEvent>,
) -> Option<Ending> {
    let ending = run_session(session, channels, out, idle, typed_ahead).await;
    if let Some(link) = channels.table.take() {
        let leave = Command::Leave {
            who: link.who,
            line: link.line,
        };
        link.room.send(leave).await;
    }
    ending
}

async fn run_session(
    session: &mut Session,
    channels: &mut Channels,
    out: &mut Output,
    idle: Duration,
    typed_ahead: Vec<InputEvent>,
) -> Option<Ending> {
    let (width, height) = out.size();
    if let Some(ending) = session.start(width, height) {
        return Some(ending);
    }
    if let Some(ending) = handle_all(session, typed_ahead) {
        return Some(ending);
    }
    channels.send_requests(session).await;
    let mut typing = Typing::default();
    let mut events: Vec<InputEvent> = Vec::new();
    // Whether the player's event has finished: once their last game is over too, they go back to its table (its
    // final standings), not to a rematch offer.
    let mut event_over = false;
    // When the player leaves for the event's table: a moment after the end of their last game shows, the keys
    // and the server's signals answered meanwhile.
    let mut leave_at: Option<Instant> = None;
    loop {
        if !out.draw(session).await {
            session.end(Ending::InputClosed);
            return Some(Ending::InputClosed);
        }
        if (event_over || channels.tv)
            && leave_at.is_none()
            && session.app().game().outcome().is_some()
        {
            let after = match channels.tv {
                true => super::tv::NEXT_AFTER,
                false => EVENT_TABLE_AFTER,
            };
            leave_at = Some(Instant::now() + after);
        }
        let wake = typing.wake(session.next_deadline().map(Instant::from_std), idle);
        // The event's end matters at one of its boards, once.
        let watch_end = !event_over && channels.table.is_some();
        tokio::select! {
            message = channels.input.recv() => {
                if !typing.take(message, &mut channels.input, out, &mut events) {
                    session.end(Ending::InputClosed);
                    return Some(Ending::InputClosed);
                }
            }
            news = table_news(&mut channels.table) => {
                let Some(news) = news else {
                    // Nothing more will come from this room: it went away with the player still at it.
                    channels.lost = channels.table.take().map(|link| link.code);
                    session.end(Ending::Quit);
                    return Some(Ending::Quit);
                };
                if matches!(news, TableEvent::TakenOver) {
                    // The seat is played from another connection now: this one leaves the table, and must not
                    // tell the room it has gone (the seat is not away).
                    let _ = session.handle(Event::Table(news));
                    channels.table = None;
                    channels.taken_over = true;
                    session.end(Ending::Quit);
                    return Some(Ending::Quit);
                }
                if let TableEvent::Rematch(code) = &news {
                    channels.rematch = Some(RoomCode::new(code.as_str()));
                    session.end(Ending::Quit);
                    return Some(Ending::Quit);
                }
                // What someone the player has blocked says is not shown, and their offers are declined unseen.
                if let (Some(civility), Some(link)) = (&channels.civility, &channels.table) {
                    if civility.hides(&news) {
                        continue;
                    }
                    if let Some(answer) = civility.answer_for(&link.code, &news).await {
                        link.room.ask(&link.who, answer).await;
                        continue;
                    }
                }
                // A game that moves is not idle: a watcher, or a player waiting for a move, stays.
                if matches!(news, TableEvent::State(_)) {
                    typing.last_input = Instant::now();
                }
                if let Some(ending) = session.handle(Event::Table(news)) {
                    return Some(ending);
                }
            }
            Some((question, answer)) = channels.proofs.recv() => {
                if let Some(ending) = session.handle(Event::Proved { question, answer }) {
                    return Some(ending);
                }
            }
            () = sleep_until(leave_at.unwrap_or_else(Instant::now)), if leave_at.is_some() => {
                channels.tv_next = channels.tv;
                session.end(Ending::Quit);
                return Some(Ending::Quit);
            }
            Some(news) = event_news(&mut channels.event, watch_end) => {
                let EventNews::Board(code) = news else {
                    event_over = true;
                    continue;
                };
                // The event's next game for this player: there at once (the last one is over), once what the
                // last table said is on the screen (how its game ended).
                if channels.table.as_ref().is_none_or(|link| link.code != code) {
                    while let Some(news) = channels.table.as_mut().and_then(|link| link.updates.try_recv().ok()) {
                        let _ = session.handle(Event::Table(news));
                    }
                    let _ = out.draw(session).await;
                    channels.rematch = Some(code);
                    session.end(Ending::Quit);
                    return Some(Ending::Quit);
                }
            }
            Some(report) = channels.engine.recv() => {
                if let Some(ending) = session.handle(Event::Engine(report)) {
                    return Some(ending);
                }
            }
            _ = channels.shutdown.changed() => {
                session.end(Ending::Signal(SIGTERM));
                return Some(Ending::Signal(SIGTERM));
            }
            () = sleep_until(wake) => {
                let now = Instant::now();
                typing.settle(now, &mut events);
                if now >= typing.last_input + idle {
                    session.end(Ending::InputClosed);
                    return None;
                }
                if let Some(ending) = session.fire_timers(now.into_std()) {
                    return Some(ending);
                }
            }
        }
        if interrupted(&events) {
            session.end(Ending::Signal(SIGINT));
            return Some(Ending::Signal(SIGINT));
        }
        if let Some(ending) = handle_all(session, events.drain(..)) {
            return Some(ending);
        }
        channels.send_requests(session).await;
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
