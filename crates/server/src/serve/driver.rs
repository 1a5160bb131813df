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
use crate::session::SessionEnd;

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
                let end = GameEnd::Session(SessionEnd::InputClosed);
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
                    return Err(GameEnd::Session(SessionEnd::InputClosed));
                }
            }
            news = news => return Ok(Turn::News(news)),
            _ = self.shutdown.changed() => return Err(GameEnd::Session(SessionEnd::Signal(SIGTERM))),
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
            return Err(GameEnd::Session(SessionEnd::Signal(SIGINT)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Key, KeyCode};
    use crate::serve::door::Screen;

    /// A screen that keeps what reaches it: numbers as its news (busy or not), keys, its timer; it leaves at
    /// `q` with every key it had.
    struct Probe {
        news: mpsc::Receiver<u32>,
        heard: Vec<u32>,
        keys: Vec<Key>,
        timer: Option<Instant>,
        timers: u32,
        ended: Option<GameEnd>,
        /// Whether news makes it leave.
        leaves_on_news: bool,
    }

    impl Probe {
        /// A probe that hears `news`, has heard nothing yet and stays on news.
        fn new(news: mpsc::Receiver<u32>) -> Probe {
            Probe {
                news,
                heard: Vec::new(),
                keys: Vec::new(),
                timer: None,
                timers: 0,
                ended: None,
                leaves_on_news: false,
            }
        }
    }

    impl Part for Probe {
        type News = Option<u32>;
        type Exit = Vec<Key>;

        fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()> {
            terminal.draw(|_| {}).map(drop)
        }

        async fn news(&mut self) -> Option<u32> {
            self.news.recv().await
        }

        fn deadline(&self) -> Option<Instant> {
            self.timer
        }

        async fn input(&mut self, events: Vec<InputEvent>, _: &mut Output) -> Flow<Vec<Key>> {
            for event in events {
                if let InputEvent::Key(key) = event {
                    self.keys.push(key);
                    if key == Key::char('q') {
                        return Flow::Leave(self.keys.clone());
                    }
                }
            }
            Flow::Stay
        }

        async fn heard(&mut self, news: Option<u32>, _: &mut Output) -> Flow<Vec<Key>> {
            match news {
                Some(n) => {
                    self.heard.push(n);
                    match self.leaves_on_news {
                        true => Flow::Leave(self.keys.clone()),
                        false => Flow::Busy,
                    }
                }
                None => std::future::pending().await,
            }
        }

        async fn timer(&mut self, _: Instant) -> Flow<Vec<Key>> {
            self.timers += 1;
            self.timer = None;
            Flow::Stay
        }

        fn end(&mut self, end: GameEnd) {
            self.ended = Some(end);
        }
    }

    /// A driver on a connection whose frames are taken as they come, the probe its screen, and the
    /// connection's and the probe's senders.
    fn rig(
        idle: Duration,
    ) -> (
        Driver,
        Output,
        Probe,
        mpsc::Sender<ToGame>,
        mpsc::Sender<u32>,
        watch::Sender<bool>,
    ) {
        let (screen, mut frames) = Screen::new();
        tokio::spawn(async move { while frames.recv().await.is_some() {} });
        let out = Output::new(screen, (80, 24)).expect("an output");
        let (input_tx, input) = mpsc::channel(8);
        let (shutdown_tx, shutdown) = watch::channel(false);
        let (news_tx, news) = mpsc::channel(8);
        let probe = Probe::new(news);
        let driver = Driver::new(input, shutdown, idle);
        (driver, out, probe, input_tx, news_tx, shutdown_tx)
    }

    #[tokio::test(start_paused = true)]
    async fn news_keys_and_the_timer_reach_the_screen_until_it_leaves() {
        let (mut driver, mut out, mut probe, input, news, _shutdown) = rig(Duration::from_secs(60));
        probe.timer = Some(Instant::now() + Duration::from_secs(1));
        news.send(7).await.expect("sent");
        input
            .send(ToGame::Bytes(b"ab".to_vec()))
            .await
            .expect("sent");
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(2)).await;
            let _ = news.send(8).await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            let _ = input.send(ToGame::Bytes(b"q".to_vec())).await;
            // Held open until the test ends.
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        let keys = driver.drive(&mut out, &mut probe).await.expect("left");
        assert_eq!(keys, vec![Key::char('a'), Key::char('b'), Key::char('q')]);
        assert_eq!(probe.heard, vec![7, 8]);
        assert_eq!(probe.timers, 1);
        assert_eq!(probe.ended, None, "a screen that leaves is not ended");
    }

    #[tokio::test(start_paused = true)]
    async fn ctrl_c_a_closed_connection_and_the_shutdown_end_the_screen_and_tell_it() {
        let (mut driver, mut out, mut probe, input, _news, _shutdown) =
            rig(Duration::from_secs(60));
        input
            .send(ToGame::Bytes(b"a\x03".to_vec()))
            .await
            .expect("sent");
        let end = driver.drive(&mut out, &mut probe).await.expect_err("ended");
        assert_eq!(end, GameEnd::Session(SessionEnd::Signal(SIGINT)));
        assert_eq!(probe.ended, Some(end));
        assert!(
            probe.keys.is_empty(),
            "nothing queued before Ctrl-c is played"
        );

        let (mut driver, mut out, mut probe, input, _news, _shutdown) =
            rig(Duration::from_secs(60));
        drop(input);
        let end = driver.drive(&mut out, &mut probe).await.expect_err("ended");
        assert_eq!(end, GameEnd::Session(SessionEnd::InputClosed));
        assert_eq!(probe.ended, Some(end));

        let (mut driver, mut out, mut probe, _input, _news, shutdown) =
            rig(Duration::from_secs(60));
        shutdown.send(true).expect("sent");
        let end = driver.drive(&mut out, &mut probe).await.expect_err("ended");
        assert_eq!(end, GameEnd::Session(SessionEnd::Signal(SIGTERM)));
        assert_eq!(probe.ended, Some(end));
    }

    #[tokio::test(start_paused = true)]
    async fn a_player_is_idle_only_while_neither_they_nor_busy_news_come() {
        let idle = Duration::from_secs(60);
        let (mut driver, mut out, mut probe, _input, news, _shutdown) = rig(idle);
        // News every 30 s for five minutes keeps the player in; then nothing, and the idle timeout ends it.
        tokio::spawn(async move {
            for n in 0..10 {
                tokio::time::sleep(Duration::from_secs(30)).await;
                let _ = news.send(n).await;
            }
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        let started = Instant::now();
        let end = driver.drive(&mut out, &mut probe).await.expect_err("ended");
        assert_eq!(end, GameEnd::Idle);
        assert_eq!(probe.heard.len(), 10);
        assert_eq!(started.elapsed(), Duration::from_secs(300) + idle);
        assert_eq!(probe.ended, Some(GameEnd::Idle));
    }

    #[tokio::test(start_paused = true)]
    async fn a_lone_escape_becomes_the_esc_key_and_a_sequence_split_across_screens_is_read_whole() {
        let (mut driver, mut out, mut probe, input, news, _shutdown) = rig(Duration::from_secs(60));
        // The start of an arrow key's sequence, then the screen changes before the rest comes.
        input
            .send(ToGame::Bytes(b"\x1b[".to_vec()))
            .await
            .expect("sent");
        probe.leaves_on_news = true;
        tokio::spawn(async move {
            tokio::time::sleep(ESC_TIMEOUT / 4).await;
            let _ = news.send(1).await;
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        let keys = driver.drive(&mut out, &mut probe).await.expect("left");
        assert!(keys.is_empty(), "{keys:?}");
        let (news_tx, news) = mpsc::channel(1);
        let mut next = Probe::new(news);
        input
            .send(ToGame::Bytes(b"A\x1b".to_vec()))
            .await
            .expect("sent");
        let input_later = input.clone();
        tokio::spawn(async move {
            tokio::time::sleep(ESC_TIMEOUT * 3).await;
            let _ = input_later.send(ToGame::Bytes(b"q".to_vec())).await;
            tokio::time::sleep(Duration::from_secs(3600)).await;
        });
        let keys = driver.drive(&mut out, &mut next).await.expect("left");
        let codes: Vec<KeyCode> = keys.iter().map(|k| k.code).collect();
        assert_eq!(codes, vec![KeyCode::Up, KeyCode::Esc, KeyCode::Char('q')]);
        drop(news_tx);
    }
}
