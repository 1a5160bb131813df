//! The tournaments the server runs: one task a running event, which owns its pure
//! [`crate::serve::tournament::director::Director`], and the list of them the connections find events
//! in (to enter one, to see its table, to list it in the lobby).
//!
//! An event runs on the node that created it (or that restarted with it in its records). On a server of
//! several nodes its games are ordinary rooms, reached from any node, but its director is not taken over by
//! another node if that one dies: the event stays as its records left it until the node comes back.

pub mod create;
mod task;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::serve::codes::new_code;
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, GameId, RoomCode};
use crate::serve::recorder::{Job, Recorder};
use crate::serve::records::{Stage, TournamentRecord, TournamentSpec};
use crate::serve::room::{GameEnded, TournamentGame};
use crate::serve::tables::Tables;
use crate::serve::tournament::Colour;
use crate::serve::tournament::director::{Director, event_tags};
pub use task::unix_now;

/// How many asks may wait for one event's task.
const ASKS_QUEUE: usize = 256;

/// How many boards may wait to be sent to one player (only the newest matters).
pub const NEWS_QUEUE: usize = 4;

/// The most events waiting or running at once (each holds a task and its entrants).
pub const MAX_EVENTS: usize = 200;

/// The most events one player may have created waiting or running at once.
pub const MAX_EVENTS_EACH: usize = 3;

/// What an event's task is asked by the connections.
#[derive(Debug)]
pub enum Ask {
    /// A player enters (or is back), their boards to be sent to `news`.
    Enter {
        /// Who.
        who: Identity,
        /// Where their boards go.
        news: mpsc::Sender<News>,
        /// Told once the event has taken them in and published its view with them in it, so that the player's
        /// first screen counts them.
        taken_in: tokio::sync::oneshot::Sender<()>,
    },
    /// A player's connection to the event has gone (by the sender it was given, so that a newer one stays).
    Leave {
        /// Who.
        who: Fingerprint,
        /// Which connection.
        news: mpsc::WeakSender<News>,
    },
    /// A player withdraws.
    Withdraw(Fingerprint),
}

/// What an event tells one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// Their game is at this table.
    Board(RoomCode),
}

/// An event as everyone sees it, after each change.
#[derive(Clone, Debug)]
pub struct View {
    /// How it was set up.
    pub spec: TournamentSpec,
    /// Where it stands.
    pub stage: Stage,
    /// How many have entered.
    pub entrants: usize,
    /// Its table and pairings as text.
    pub text: String,
    /// Its leaders in one line (`1. ann 4 · 2. bob 3.5 · ...`), for the watchers of its games.
    pub leaders: String,
    /// The games under way: each player's table and colour.
    pub boards: HashMap<Fingerprint, (RoomCode, Colour)>,
}

/// A line to one event's task.
#[derive(Clone, Debug)]
pub struct EventHandle {
    asks: mpsc::Sender<Ask>,
    view: watch::Receiver<Arc<View>>,
}

impl EventHandle {
    /// Sends an ask; `false` when the event's task has ended.
    pub async fn send(&self, ask: Ask) -> bool {
        self.asks.send(ask).await.is_ok()
    }

    /// The event as it stands, to watch for changes.
    pub fn view(&self) -> watch::Receiver<Arc<View>> {
        self.view.clone()
    }
}

/// Why an event cannot be created.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// Too many events wait or run.
    #[error("the server runs {0} events already; try later")]
    TooMany(usize),
    /// The player has created as many as they may.
    #[error("you have {0} events waiting or under way already")]
    TooManyOfYours(usize),
    /// No code is free.
    #[error("no code is free for a new event")]
    NoCode,
}

/// Every event this node runs.
pub struct Events {
    tables: Weak<Tables>,
    recorder: Recorder,
    grace: Duration,
    shutdown: watch::Receiver<bool>,
    running: Mutex<HashMap<RoomCode, EventHandle>>,
    /// Every event's code the records hold, so that a new one takes another.
    known: Mutex<HashSet<RoomCode>>,
}

impl Events {
    /// No events yet; their rooms open in `tables`, their changes go to `recorder`, a player away from a game
    /// loses it after `grace`.
    pub fn new(
        tables: &Arc<Tables>,
        recorder: Recorder,
        grace: Duration,
        shutdown: watch::Receiver<bool>,
        known: HashSet<RoomCode>,
    ) -> Events {
        Events {
            tables: Arc::downgrade(tables),
            recorder,
            grace,
            shutdown,
            running: Mutex::default(),
            known: Mutex::new(known),
        }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<RoomCode, EventHandle>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The event with `code`, if it waits or runs here.
    pub fn find(&self, code: &RoomCode) -> Option<EventHandle> {
        let mut running = self.running();
        let handle = running.get(code)?.clone();
        if handle.asks.is_closed() {
            running.remove(code);
            return None;
        }
        Some(handle)
    }

    /// Every event waiting or running here, as it stands, by start time.
    pub fn views(&self) -> Vec<Arc<View>> {
        let mut running = self.running();
        running.retain(|_, handle| !handle.asks.is_closed());
        let mut views: Vec<Arc<View>> = running.values().map(|h| h.view.borrow().clone()).collect();
        views.sort_by(|a, b| (a.spec.starts, &a.spec.code).cmp(&(b.spec.starts, &b.spec.code)));
        views
    }

    /// Creates an event from `spec` (its code is chosen here): kept in the records and its task started. Its
    /// code.
    pub fn create(&self, mut spec: TournamentSpec) -> Result<RoomCode, CreateError> {
        let views = self.views();
        if views.len() >= MAX_EVENTS {
            return Err(CreateError::TooMany(views.len()));
        }
        if spec.created_by.is_some() {
            let theirs = views
                .iter()
                .filter(|v| v.stage != Stage::Finished && v.spec.created_by == spec.created_by)
                .count();
            if theirs >= MAX_EVENTS_EACH {
                return Err(CreateError::TooManyOfYours(theirs));
            }
        }
        let code = {
            let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
            let code = new_code(|code| known.contains(code)).ok_or(CreateError::NoCode)?;
            known.insert(code.clone());
            code
        };
        spec.code = code.clone();
        self.recorder
            .send(Job::CreateTournament(Box::new(spec.clone())));
        let director = Director::new(spec);
        let views = views_of(&director);
        self.start(director, HashMap::new(), channel(), views);
        Ok(code)
    }

    /// Starts the task of `director`, whose games under way are at `boards`, their results coming on
    /// `results`.
    fn start(
        &self,
        director: Director,
        boards: HashMap<(u32, u32), RoomCode>,
        results: Results,
        views: Views,
    ) {
        let Some(tables) = self.tables.upgrade() else {
            return;
        };
        let code = director.spec().code.clone();
        let (asks, asks_rx) = mpsc::channel(ASKS_QUEUE);
        let (view_tx, view) = views;
        let running = task::Running {
            director,
            tables,
            recorder: self.recorder.clone(),
            grace: self.grace,
            boards,
            view: view_tx,
        };
        self.running().insert(code, EventHandle { asks, view });
        tokio::spawn(task::run(running, asks_rx, results, self.shutdown.clone()));
    }
}

/// Where an event's games report their results, and where it hears them.
type Results = (
    mpsc::UnboundedSender<GameEnded>,
    mpsc::UnboundedReceiver<GameEnded>,
);

fn channel() -> Results {
    mpsc::unbounded_channel()
}

/// The rooms of an event's pairings under way, by (round, board).
type Boards = HashMap<(u32, u32), RoomCode>;

/// Where an event's task publishes it, and where everyone sees it.
type Views = (watch::Sender<Arc<View>>, watch::Receiver<Arc<View>>);

/// The channel `director`'s event is seen through, showing it as it stands.
fn views_of(director: &Director) -> Views {
    watch::channel(Arc::new(task::view_of(director, HashMap::new())))
}

/// The events a restarted server picks up again from its records, before their games are resumed.
pub struct Restoring {
    events: Vec<(Director, Results, Boards, Views)>,
    /// The event's games under way in the records, by their number: each event's index and pairing.
    games: HashMap<GameId, (usize, u32, u32)>,
}

impl Restoring {
    /// The events of `records` not finished.
    pub fn new(records: Vec<TournamentRecord>) -> Restoring {
        let mut games = HashMap::new();
        let mut events = Vec::new();
        for record in records.iter().filter(|r| r.stage != Stage::Finished) {
            for p in record.pairings.iter().filter(|p| p.result.is_none()) {
                if let Some(game) = p.game {
                    games.insert(game, (events.len(), p.round, p.board));
                }
            }
            let director = Director::restore(record);
            let views = views_of(&director);
            events.push((director, channel(), HashMap::new(), views));
        }
        Restoring { events, games }
    }

    /// The link a resumed game's room is opened with, when the game is an event's.
    pub fn link(&self, game: GameId) -> Option<TournamentGame> {
        let &(index, round, board) = self.games.get(&game)?;
        let (director, (results, _), _, (_, view)) = self.events.get(index)?;
        Some(TournamentGame {
            event: director.spec().code.clone(),
            round,
            board,
            tags: event_tags(director.spec(), round),
            results: results.clone(),
            view: view.clone(),
        })
    }

    /// The resumed game `game` is at the table `code`.
    pub fn resumed(&mut self, game: GameId, code: RoomCode) {
        if let Some(&(index, round, board)) = self.games.get(&game)
            && let Some((_, _, boards, _)) = self.events.get_mut(index)
        {
            boards.insert((round, board), code);
        }
    }

    /// Starts every event's task in `events`.
    pub fn start(self, events: &Events) {
        for (director, results, boards, views) in self.events {
            events.start(director, boards, results, views);
        }
    }
}

/// How often the operator's schedule is looked at.
const SCHEDULE_EVERY: Duration = Duration::from_secs(15);

/// Holds the operator's events (`server.tournaments`, each in the words of `tournament new`): whenever none of
/// an entry's name waits to start, the next is created (with `at=HH:MM`, the next day's once today's has
/// started). Only a server on its own schedules: several nodes would each create the same event.
pub(crate) async fn schedule(shared: Weak<crate::serve::Shared>, entries: Vec<String>) {
    if entries.is_empty() {
        return;
    }
    loop {
        let Some(server) = shared.upgrade() else {
            return;
        };
        if server.config.nodes.is_some() || *server.shutdown.borrow() {
            return;
        }
        let waiting = server.events.views();
        for words in &entries {
            let Ok(spec) = create::read_spec(words, None, unix_now()) else {
                continue;
            };
            let listed = waiting.iter().any(|view| {
                view.stage == Stage::Waiting
                    && view.spec.created_by.is_none()
                    && view.spec.name == spec.name
            });
            if !listed && let Err(why) = server.events.create(spec) {
                tracing::warn!(event = %words, %why, "a scheduled tournament cannot be created");
            }
        }
        drop(server);
        tokio::time::sleep(SCHEDULE_EVERY).await;
    }
}
