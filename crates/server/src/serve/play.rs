//! A game on a connection: a [`Session`] (against the engine, at a table, watched, or the problem trainer's) as
//! the [`Part`] the connection's driver runs, with the news that reaches it: its table's updates, the engine's
//! reports, the prover's answers and the event whose boards it is played at. Nothing here knows the door the
//! player came by.

use std::io;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::at_event::EventNews;
use super::door::{FrameTerminal, GameEnd, Output};
use super::driver::{Driver, Flow, Part};
use super::ids::{Fingerprint, TableCode};
use super::table::{Command, TableHandle, WeakUpdates};
use crate::app::{InputEvent, TableNews, TableRequest, TrainingNews};
use crate::engine::Report;
use crate::problems::check::Answer;
use crate::session::{Session, SessionEnd, Wakeup};

/// What a game needs besides its session.
pub struct Channels {
    /// The engine's reports for this session.
    pub engine: mpsc::UnboundedReceiver<Report>,
    /// The prover's answers to this session's problem trainer (at most one question is live at a time).
    pub proofs: mpsc::UnboundedReceiver<(u64, Answer)>,
    /// Where the problem trainer's decisions go to be kept, in a trainer session of a keyed player.
    pub trained: Option<mpsc::Sender<TrainingNews>>,
    /// The table the game is played at, for a game between people.
    pub table: Option<TableLink>,
    /// The code of the rematch the table's players and watchers were sent to, once one is agreed: the session
    /// at the old table ends, and the connection goes on to the new one.
    pub rematch: Option<TableCode>,
    /// The code of the table whose table went away while the player was at it (its node died, or another node
    /// took it over): the session ends, and the connection finds the game again where it runs now.
    pub lost: Option<TableCode>,
    /// When the table went away with the player's move on its way to it: the plies of the game it last told
    /// (the move is played once the game found again is longer, and the player is told it was not otherwise).
    pub unplayed: Option<usize>,
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
    /// The table.
    pub table: TableHandle,
    /// The code it is joined by.
    pub code: TableCode,
    /// The player, by key fingerprint.
    pub who: Fingerprint,
    /// The table's updates for this player.
    pub updates: mpsc::Receiver<TableNews>,
    /// The same updates as the table knows them, to say which connection leaves.
    pub line: WeakUpdates,
}

/// The table's next news, or never when the game is not at a table (or the table has gone).
async fn table_news(table: &mut Option<TableLink>) -> Option<TableNews> {
    match table.as_mut() {
        Some(link) => link.updates.recv().await,
        None => std::future::pending().await,
    }
}

impl Channels {
    /// A connection's channels before anything is chosen: no engine, table, event or TV yet.
    pub fn new() -> Channels {
        Channels {
            engine: mpsc::unbounded_channel().1,
            proofs: mpsc::unbounded_channel().1,
            trained: None,
            table: None,
            rematch: None,
            lost: None,
            unplayed: None,
            taken_over: false,
            event: None,
            civility: None,
            tv: false,
            tv_next: false,
        }
    }

    /// Sends what the player asked of the table, and what the problem trainer decided to be kept; carries out
    /// what they asked about their opponent, and tells them.
    async fn send_requests(&mut self, session: &mut Session) {
        for request in session.take_conduct() {
            let told = match (self.civility.as_mut(), &self.table) {
                (Some(civility), Some(link)) => civility.carry_out(&link.code, request).await,
                _ => "blocking and reporting are for a game at a table".to_string(),
            };
            let _ = session.handle(Wakeup::Table(TableNews::Told(told)));
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
                let was_move = matches!(request, TableRequest::Play(_));
                // A table that has just stopped here (handed to another node as this one drains, or taken over):
                // the player hears that their move went nowhere, as they would from a table that refused it,
                // and plays it again once the game is found where it runs now.
                if !link.table.ask(&link.who, request).await && was_move {
                    let _ = session.handle(Wakeup::Table(TableNews::MoveRefused(
                        MOVED_AWAY.to_string(),
                    )));
                }
            }
        }
    }
}

/// What a player whose move reached a table that had just stopped here, or went nowhere as their table moved to
/// another node, is told.
pub(super) const MOVED_AWAY: &str =
    "the game is moving to another server; your move was not played";

/// How long a player whose event has finished sees how their last game ended before they are taken to the
/// event's table.
const EVENT_TABLE_AFTER: Duration = Duration::from_secs(3);

/// Hands the session `events` in order; how it ended, if one of them ended it.
fn handle_all(
    session: &mut Session,
    events: impl IntoIterator<Item = InputEvent>,
) -> Option<SessionEnd> {
    events
        .into_iter()
        .find_map(|event| session.handle(Wakeup::Input(event)))
}

/// Runs the session on `driver` until it ends: its ending, or `None` when it was put away for being idle.
/// `typed_ahead` (keys that came after the one that opened the game) go to it first. A game at a table is left
/// (the seat kept for the grace period) as it ends.
pub async fn run(
    session: &mut Session,
    channels: &mut Channels,
    driver: &mut Driver,
    out: &mut Output,
    typed_ahead: Vec<InputEvent>,
) -> Option<SessionEnd> {
    let ending = run_session(session, channels, driver, out, typed_ahead).await;
    if let Some(link) = channels.table.take() {
        let leave = Command::Leave {
            who: link.who,
            line: link.line,
        };
        link.table.send(leave).await;
    }
    ending
}

async fn run_session(
    session: &mut Session,
    channels: &mut Channels,
    driver: &mut Driver,
    out: &mut Output,
    typed_ahead: Vec<InputEvent>,
) -> Option<SessionEnd> {
    let (width, height) = out.size();
    if let Some(ending) = session.start(width, height) {
        return Some(ending);
    }
    if let Some(ending) = handle_all(session, typed_ahead) {
        return Some(ending);
    }
    channels.send_requests(session).await;
    let mut part = Playing {
        session,
        channels,
        event_over: false,
        leave_at: None,
    };
    match driver.drive(out, &mut part).await {
        Ok(ending) => Some(ending),
        Err(GameEnd::Session(ending)) => Some(ending),
        Err(GameEnd::Idle) => None,
    }
}

/// A session as the screen a connection shows.
struct Playing<'a> {
    session: &'a mut Session,
    channels: &'a mut Channels,
    /// Whether the player's event has finished: once their last game is over too, they go back to its table
    /// (its final standings), not to a rematch offer.
    event_over: bool,
    /// When the player leaves for the event's table, or the TV for its next game: a moment after the end of
    /// the game shows, the keys and the server's signals answered meanwhile.
    leave_at: Option<Instant>,
}

/// What reaches a game besides the player's typing.
enum GameNews {
    /// The table's update; `None` when its table has gone with the player still at it.
    Table(Option<TableNews>),
    /// The prover's answer to the trainer's question.
    Proved(u64, Answer),
    /// The event's news.
    Event(EventNews),
    /// The engine's report.
    Engine(Report),
}

impl Playing<'_> {
    /// Ends the session with `ending`, and leaves the screen with it.
    fn leave(&mut self, ending: SessionEnd) -> Flow<SessionEnd> {
        self.session.end(ending);
        Flow::Leave(ending)
    }

    /// After the session has handled something: its ending, or the player's requests sent and the screen kept.
    async fn go_on(&mut self, ending: Option<SessionEnd>) -> Flow<SessionEnd> {
        if let Some(ending) = ending {
            return Flow::Leave(ending);
        }
        self.channels.send_requests(self.session).await;
        Flow::Stay
    }

    /// Handles the table's update.
    async fn table_news(&mut self, news: Option<TableNews>) -> Flow<SessionEnd> {
        let Some(news) = news else {
            // Nothing more will come from this table: it went away with the player still at it.
            self.channels.lost = self.channels.table.take().map(|link| link.code);
            self.channels.unplayed = self
                .session
                .app()
                .table()
                .filter(|table| table.move_on_its_way())
                .and_then(|table| table.state())
                .map(|state| state.game.moves().len());
            return self.leave(SessionEnd::Quit);
        };
        if matches!(news, TableNews::TakenOver) {
            // The seat is played from another connection now: this one leaves the table, and must not tell the
            // table it has gone (the seat is not away).
            let _ = self.session.handle(Wakeup::Table(news));
            self.channels.table = None;
            self.channels.taken_over = true;
            return self.leave(SessionEnd::Quit);
        }
        if let TableNews::Rematch(code) = &news {
            self.channels.rematch = Some(TableCode::new(code.as_str()));
            return self.leave(SessionEnd::Quit);
        }
        // What someone the player has blocked says is not shown, and their offers are declined unseen.
        if let (Some(civility), Some(link)) = (&self.channels.civility, &self.channels.table) {
            if civility.hides(&news) {
                return Flow::Stay;
            }
            if let Some(answer) = civility.answer_for(&link.code, &news).await {
                link.table.ask(&link.who, answer).await;
                return Flow::Stay;
            }
        }
        // A game that moves is not idle: a watcher, or a player waiting for a move, stays.
        let moved = matches!(news, TableNews::State(_));
        // The game found again after its table went (moved to another node) without the move the player had sent
        // it: once its state has come, they hear that the move was not played, rather than find their turn again
        // unexplained.
        let unplayed = match &news {
            TableNews::State(state) => self
                .channels
                .unplayed
                .take()
                .filter(|plies| state.game.moves().len() == *plies),
            _ => None,
        };
        let mut ending = self.session.handle(Wakeup::Table(news));
        if ending.is_none() && unplayed.is_some() {
            let refused = TableNews::MoveRefused(MOVED_AWAY.to_string());
            ending = self.session.handle(Wakeup::Table(refused));
        }
        match self.go_on(ending).await {
            Flow::Stay if moved => Flow::Busy,
            flow => flow,
        }
    }

    /// Handles the event's news: its end, or the player's next board.
    async fn event_news(&mut self, news: EventNews, out: &mut Output) -> Flow<SessionEnd> {
        let EventNews::Board(code) = news else {
            self.event_over = true;
            return Flow::Stay;
        };
        // The event's next game for this player: there at once (the last one is over), once what the last table
        // said is on the screen (how its game ended).
        if self
            .channels
            .table
            .as_ref()
            .is_some_and(|link| link.code == code)
        {
            return Flow::Stay;
        }
        while let Some(news) = self
            .channels
            .table
            .as_mut()
            .and_then(|link| link.updates.try_recv().ok())
        {
            let _ = self.session.handle(Wakeup::Table(news));
        }
        let _ = out.draw_part(|terminal| self.session.draw(terminal)).await;
        self.channels.rematch = Some(code);
        self.leave(SessionEnd::Quit)
    }
}

impl Part for Playing<'_> {
    type News = GameNews;
    type Exit = SessionEnd;

    async fn settle(&mut self) -> Option<SessionEnd> {
        if (self.event_over || self.channels.tv)
            && self.leave_at.is_none()
            && self.session.app().game().outcome().is_some()
        {
            let after = match self.channels.tv {
                true => super::tv::NEXT_AFTER,
                false => EVENT_TABLE_AFTER,
            };
            self.leave_at = Some(Instant::now() + after);
        }
        None
    }

    fn draw(&mut self, terminal: &mut FrameTerminal) -> io::Result<()> {
        self.session.draw(terminal)
    }

    async fn news(&mut self) -> GameNews {
        // The event's end matters at one of its boards, once.
        let watch_end = !self.event_over && self.channels.table.is_some();
        let channels = &mut *self.channels;
        tokio::select! {
            news = table_news(&mut channels.table) => GameNews::Table(news),
            Some((question, answer)) = channels.proofs.recv() => GameNews::Proved(question, answer),
            Some(news) = event_news(&mut channels.event, watch_end) => GameNews::Event(news),
            Some(report) = channels.engine.recv() => GameNews::Engine(report),
        }
    }

    fn deadline(&self) -> Option<Instant> {
        let timers = self.session.next_deadline().map(Instant::from_std);
        [timers, self.leave_at].into_iter().flatten().min()
    }

    async fn input(&mut self, events: Vec<InputEvent>, _: &mut Output) -> Flow<SessionEnd> {
        let ending = handle_all(self.session, events);
        self.go_on(ending).await
    }

    async fn heard(&mut self, news: GameNews, out: &mut Output) -> Flow<SessionEnd> {
        match news {
            GameNews::Table(news) => self.table_news(news).await,
            GameNews::Proved(question, answer) => {
                let ending = self.session.handle(Wakeup::Proved { question, answer });
                self.go_on(ending).await
            }
            GameNews::Event(news) => self.event_news(news, out).await,
            GameNews::Engine(report) => {
                let ending = self.session.handle(Wakeup::Engine(report));
                self.go_on(ending).await
            }
        }
    }

    async fn timer(&mut self, now: Instant) -> Flow<SessionEnd> {
        if self.leave_at.is_some_and(|at| at <= now) {
            self.channels.tv_next = self.channels.tv;
            return self.leave(SessionEnd::Quit);
        }
        let ending = self.session.fire_timers(now.into_std());
        self.go_on(ending).await
    }

    fn end(&mut self, end: GameEnd) {
        self.session.end(match end {
            GameEnd::Session(ending) => ending,
            // Put away: saved as it stands, as when the connection goes.
            GameEnd::Idle => SessionEnd::InputClosed,
        });
    }
}
