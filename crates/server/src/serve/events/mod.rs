//! The tournaments the server runs: one task a running event, which owns its pure
//! [`crate::serve::event_rules::director::Director`], and the list of them the connections find events
//! in (to enter one, to see its table, to list it in the lobby).
//!
//! On a server of several nodes ([`across`]) each event is owned by one node through a lease (kept beside the
//! tables', renewed by the same heartbeat); the other nodes list it from the summary its owner writes there, and
//! their players enter it through the nodes' messages. Its games are ordinary tables, reached from any node, and
//! a game that ends on a node other than the event's sends its result there. When the event's node dies,
//! another takes it over from the records (exactly one wins its lease): its entrants, pairings and results as
//! the records hold them, with the results of the games that ended meanwhile read from the games' own records,
//! so that a result whose message was lost is never lost.

pub mod across;
pub mod caps;
pub mod create;
mod task;
pub mod view;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::serve::codes::new_code;
use crate::serve::event_rules::GameResult;
use crate::serve::event_rules::director::{Director, event_tags};
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, GameId, TableCode};
use crate::serve::nodes::cluster::Cluster;
use crate::serve::recorder::{CommitError, Job, Recorder, answer_of};
pub use crate::serve::records::unix_now;
use crate::serve::records::{EventRecord, EventSpec, Records, Stage};
use crate::serve::table::{EventLink, GameEnded};
use crate::serve::tables::Tables;
use view::View;

/// How many asks may wait for one event's task.
const ASKS_QUEUE: usize = 256;

/// How many boards may wait to be sent to one player (only the newest matters).
pub const NEWS_QUEUE: usize = 4;

/// The most events one player may have created waiting or running at once.
pub const MAX_EVENTS_EACH: usize = 3;

/// What an event's task is asked by the connections.
#[derive(Debug)]
pub enum EventRequest {
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
    Board(TableCode),
}

/// A line to one event's task (here, or on another node through the relay).
#[derive(Clone, Debug)]
pub struct EventHandle {
    asks: mpsc::Sender<EventRequest>,
    view: watch::Receiver<Arc<View>>,
    /// Where its games' results go, for an event here.
    results: Option<mpsc::UnboundedSender<GameEnded>>,
}

impl EventHandle {
    /// A handle whose asks go to `asks` and whose view is `view`: an event run elsewhere (on another node,
    /// through a relay).
    pub fn relayed(
        asks: mpsc::Sender<EventRequest>,
        view: watch::Receiver<Arc<View>>,
    ) -> EventHandle {
        EventHandle {
            asks,
            view,
            results: None,
        }
    }

    /// Sends an ask; `false` when the event's task has ended.
    pub async fn send(&self, ask: EventRequest) -> bool {
        self.asks.send(ask).await.is_ok()
    }

    /// One of the event's games has ended (heard from another node, or read from the records): for an event
    /// here, its director hears it (a result it has already is ignored).
    pub fn game_ended(&self, ended: GameEnded) {
        if let Some(results) = &self.results {
            let _ = results.send(ended);
        }
    }

    /// The event as it stands, to watch for changes.
    pub fn view(&self) -> watch::Receiver<Arc<View>> {
        self.view.clone()
    }
}

/// Why an event cannot be created.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// A cap on players' events is reached.
    #[error("{0}")]
    Cap(#[from] caps::CapReached),
    /// The player has created as many as they may.
    #[error("you have {0} events waiting or under way already")]
    TooManyOfYours(usize),
    /// No code is free.
    #[error("no code is free for a new event")]
    NoCode,
    /// The other nodes cannot be reached to reserve its code.
    #[error("the server cannot create an event just now; try again")]
    Unreachable,
    /// The records did not take it (nothing was created).
    #[error("{0}; the event was not created")]
    NotSaved(#[from] CommitError),
}

/// An event's task here, with the means to stop it.
struct RunningHere {
    handle: EventHandle,
    task: tokio::task::AbortHandle,
}

/// Every event this node runs.
pub struct Events {
    tables: Weak<Tables>,
    recorder: Recorder,
    grace: Duration,
    /// The caps on players' events.
    caps: caps::EventCaps,
    /// The events players created through this node in the last day, for the daily caps.
    creations: Mutex<caps::Creations>,
    shutdown: watch::Receiver<bool>,
    running: Mutex<HashMap<TableCode, RunningHere>>,
    /// Every event's code the records hold, so that a new one takes another.
    known: Mutex<HashSet<TableCode>>,
    /// The other nodes, once this server has joined them.
    cluster: OnceLock<Arc<Cluster>>,
    /// The events elsewhere looked at here, each as last heard: kept fresh by the heartbeat.
    mirrors: Mutex<HashMap<TableCode, watch::Sender<Arc<View>>>>,
    /// The records the events read from: the blocks between their players, the events players created in the
    /// last day on every node (none in tests that pair freely and count on this node alone).
    records: OnceLock<Arc<Mutex<dyn Records>>>,
}

impl Events {
    /// No events yet; their tables open in `tables`, their changes go to `recorder`, a player away from a game
    /// loses it after `grace`, players create them within `caps`.
    pub fn new(
        tables: &Arc<Tables>,
        recorder: Recorder,
        grace: Duration,
        caps: caps::EventCaps,
        shutdown: watch::Receiver<bool>,
        known: HashSet<TableCode>,
    ) -> Events {
        Events {
            tables: Arc::downgrade(tables),
            recorder,
            grace,
            caps,
            creations: Mutex::default(),
            shutdown,
            running: Mutex::default(),
            known: Mutex::new(known),
            cluster: OnceLock::new(),
            mirrors: Mutex::default(),
            records: OnceLock::new(),
        }
    }

    /// Reads from `records`: the blocks between each event's players before it pairs them (a block is never
    /// paired in an arena, and kept apart in a Swiss round as far as it can be paired), and the events players
    /// created in the last day on every node, for the daily caps.
    pub fn read_from(&self, records: Arc<Mutex<dyn Records>>) {
        let _ = self.records.set(records);
    }

    fn running(&self) -> MutexGuard<'_, HashMap<TableCode, RunningHere>> {
        locked(&self.running)
    }

    /// The event with `code`, if it waits or runs here. (The event's task removes nothing: an event over stays
    /// listed until the heartbeat gives its lease up.)
    pub fn find(&self, code: &TableCode) -> Option<EventHandle> {
        let running = self.running();
        let handle = &running.get(code)?.handle;
        (!handle.asks.is_closed()).then(|| handle.clone())
    }

    /// Every event waiting or running here, and (on a server of several nodes) elsewhere, as it stands, by
    /// start time.
    pub fn views(&self) -> Vec<Arc<View>> {
        let mut views: Vec<Arc<View>> = {
            let mut running = self.running();
            if self.cluster.get().is_none() {
                running.retain(|_, here| !here.handle.asks.is_closed());
            }
            running
                .values()
                .filter(|here| !here.handle.asks.is_closed())
                .map(|here| here.handle.view.borrow().clone())
                .collect()
        };
        if let Some(cluster) = self.cluster.get() {
            let here: HashSet<TableCode> = views.iter().map(|v| v.spec.code.clone()).collect();
            views.extend(
                cluster
                    .other_events()
                    .into_iter()
                    .map(|(_, view)| view)
                    .filter(|view| !here.contains(&view.spec.code)),
            );
        }
        views.sort_by(|a, b| (a.spec.starts, &a.spec.code).cmp(&(b.spec.starts, &b.spec.code)));
        views
    }

    /// Creates an event from `spec` (its code is chosen here, and on a server of several nodes its lease taken):
    /// kept in the records and its task started. Its code. An event a player creates (`by`) is held to the caps
    /// on players' events; the operator's scheduled ones (`by` none) are not, so that they always have a place.
    pub async fn create(
        &self,
        mut spec: EventSpec,
        by: Option<&caps::Creator>,
    ) -> Result<TableCode, CreateError> {
        if let Some(by) = by {
            let views = self.views();
            let live = || views.iter().filter(|v| v.stage != Stage::Finished);
            let theirs = live()
                .filter(|v| v.spec.created_by.as_ref() == Some(&by.key))
                .count();
            if theirs >= MAX_EVENTS_EACH {
                return Err(CreateError::TooManyOfYours(theirs));
            }
            let players = live().filter(|v| v.spec.created_by.is_some()).count();
            locked(&self.creations).admit(self.caps, by, players, std::time::Instant::now())?;
            self.within_daily_caps(by).await?;
            spec.created_by = Some(by.key.clone());
        }
        let code = self.new_code().await?;
        spec.code = code.clone();
        // Commit, then show: the event exists for anyone once the records hold it (and so does its creation,
        // which every node's daily caps count).
        let mut jobs = vec![Job::CreateEvent(Box::new(spec.clone()))];
        if let Some(by) = by {
            jobs.push(Job::EventCreated {
                creator: by.key.clone(),
                address: by.address.map(|a| a.to_canonical().to_string()),
                at: unix_now(),
            });
        }
        let created = self.recorder.commit(jobs);
        answer_of(created.await)?;
        let director = Director::new(spec);
        let views = views_of(&director);
        self.start(director, HashMap::new(), channel(), views);
        Ok(code)
    }

    /// Whether `by` is within the daily caps as the records count them, over every node (this node's own log
    /// has let them through already). Records out of reach leave that log to hold (logged).
    async fn within_daily_caps(&self, by: &caps::Creator) -> Result<(), caps::CapReached> {
        let Some(records) = self.records.get().cloned() else {
            return Ok(());
        };
        let key = by.key.clone();
        let address = by.address.map(|a| a.to_canonical().to_string());
        let since = unix_now() - caps::DAY.as_secs() as i64;
        let counted = tokio::task::spawn_blocking(move || {
            let mut records = records.lock().unwrap_or_else(PoisonError::into_inner);
            records.creations_since(&key, address.as_deref(), since)
        })
        .await;
        match counted {
            Ok(Ok((by_key, _))) if by_key >= self.caps.per_key => {
                Err(caps::CapReached::Key(self.caps.per_key))
            }
            Ok(Ok((_, from_address))) if from_address >= self.caps.per_address => {
                Err(caps::CapReached::Address(self.caps.per_address))
            }
            Ok(Ok(_)) => Ok(()),
            Ok(Err(error)) => {
                tracing::warn!(%error, "the events created today cannot be read; this node's own count holds");
                Ok(())
            }
            Err(error) => {
                tracing::warn!(%error, "counting the events created today failed; this node's own count holds");
                Ok(())
            }
        }
    }

    /// A code for a new event: one the records do not hold, and (on a server of several nodes) whose lease this
    /// node has taken, so that two nodes never create the same event.
    async fn new_code(&self) -> Result<TableCode, CreateError> {
        const TRIES: usize = 8;
        for _ in 0..TRIES {
            let code = {
                let mut known = locked(&self.known);
                let code = new_code(|code| known.contains(code)).ok_or(CreateError::NoCode)?;
                known.insert(code.clone());
                code
            };
            let Some(cluster) = self.cluster.get() else {
                return Ok(code);
            };
            match cluster.reserve_event(&code).await {
                Ok(true) => return Ok(code),
                // Another node's event (created since this node read the records): another code.
                Ok(false) => continue,
                Err(error) => {
                    tracing::warn!(%error, "cannot reserve a code for a new event");
                    return Err(CreateError::Unreachable);
                }
            }
        }
        Err(CreateError::NoCode)
    }

    /// Starts the task of `director`, whose games under way are at `boards`, their results coming on
    /// `results`.
    fn start(
        &self,
        director: Director,
        boards: HashMap<(u32, u32), TableCode>,
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
            records: self.records.get().cloned(),
        };
        let handle = EventHandle {
            asks,
            view,
            results: Some(results.0.clone()),
        };
        let mut here = self.running();
        // Taken over twice at once (by a player who looked for it and by the heartbeat): one task only.
        if here
            .get(&code)
            .is_some_and(|running| !running.handle.asks.is_closed())
        {
            return;
        }
        let task = tokio::spawn(task::run(running, asks_rx, results, self.shutdown.clone()));
        here.insert(
            code,
            RunningHere {
                handle,
                task: task.abort_handle(),
            },
        );
    }
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where an event's games report their results, and where it hears them.
type Results = (
    mpsc::UnboundedSender<GameEnded>,
    mpsc::UnboundedReceiver<GameEnded>,
);

fn channel() -> Results {
    mpsc::unbounded_channel()
}

/// The tables of an event's pairings under way, by (round, board).
type Boards = HashMap<(u32, u32), TableCode>;

/// Where an event's task publishes it, and where everyone sees it.
type Views = (watch::Sender<Arc<View>>, watch::Receiver<Arc<View>>);

/// The channel `director`'s event is seen through, showing it as it stands.
fn views_of(director: &Director) -> Views {
    watch::channel(Arc::new(task::view_of(director, HashMap::new())))
}

/// A game of an event that the records hold as ended while the event had not kept its result: the pairing's
/// round and board, and the game's result as PDN writes it.
pub type EndedInRecords = (u32, u32, String);

/// The events a restarted server picks up again from its records, before their games are resumed.
pub struct Restoring {
    events: Vec<(Director, Results, Boards, Views)>,
    /// The event's games under way in the records, by their number: each event's index and pairing.
    games: HashMap<GameId, (usize, u32, u32)>,
}

impl Restoring {
    /// The events of `records` not finished, each with the results of its games that ended and that it had not
    /// kept (as [`EventRecords::event_games_ended`](crate::serve::records::EventRecords::event_games_ended) reads them).
    pub fn new(records: Vec<(EventRecord, Vec<EndedInRecords>)>) -> Restoring {
        let mut games = HashMap::new();
        let mut events = Vec::new();
        for (record, ended) in records.iter().filter(|(r, _)| r.stage != Stage::Finished) {
            for p in record.pairings.iter().filter(|p| p.result.is_none()) {
                if let Some(game) = p.game {
                    games.insert(game, (events.len(), p.round, p.board));
                }
            }
            let director = Director::restore(record);
            let views = views_of(&director);
            let results = channel();
            for game in recorded_results(ended) {
                let _ = results.0.send(game);
            }
            events.push((director, results, HashMap::new(), views));
        }
        Restoring { events, games }
    }

    /// The link a resumed game's table is opened with, when the game is an event's.
    pub fn link(&self, game: GameId) -> Option<EventLink> {
        let &(index, round, board) = self.games.get(&game)?;
        let (director, (results, _), _, (_, view)) = self.events.get(index)?;
        Some(EventLink {
            event: director.spec().code.clone(),
            round,
            board,
            tags: event_tags(director.spec(), round),
            results: results.clone(),
            view: view.clone(),
        })
    }

    /// The resumed game `game` is at the table `code`.
    pub fn resumed(&mut self, game: GameId, code: TableCode) {
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

/// The games the records hold as ended whose results an event has not kept (each pairing's round, board and
/// the game's result as PDN writes it: the first number is the score of the side that moves first), as its
/// director hears them. A result that does not read is left out (logged).
pub fn recorded_results(ended: &[EndedInRecords]) -> Vec<GameEnded> {
    ended
        .iter()
        .filter_map(|(round, board, token)| {
            let result = result_of_token(token);
            if result.is_none() {
                tracing::warn!(%token, "a tournament game's result in the records does not read");
            }
            Some(GameEnded {
                round: *round,
                board: *board,
                result: result?,
                // Whether a player was away is not in the records: the result counts as played.
                forfeit: false,
            })
        })
        .collect()
}

/// A PDN result (`1-0`, `0-2`, `1/2-1/2`, `1-1`) as the side that moves first won, lost or drew.
fn result_of_token(token: &str) -> Option<GameResult> {
    let score = |side: &str| match side.trim() {
        "1/2" => Some(0.5),
        number => number.parse::<f64>().ok(),
    };
    let (first, second) = token.split_once('-')?;
    let (first, second) = (score(first)?, score(second)?);
    Some(match first.partial_cmp(&second)? {
        std::cmp::Ordering::Greater => GameResult::FirstWins,
        std::cmp::Ordering::Less => GameResult::SecondWins,
        std::cmp::Ordering::Equal => GameResult::Draw,
    })
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
            if !listed && let Err(why) = server.events.create(spec, None).await {
                tracing::warn!(event = %words, %why, "a scheduled tournament cannot be created");
            }
        }
        drop(server);
        tokio::time::sleep(SCHEDULE_EVERY).await;
    }
}

#[cfg(test)]
mod records_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_result_is_read_from_the_side_that_moves_first() {
        let ended = [
            (1, 0, "1-0".to_string()),
            (1, 1, "0-1".to_string()),
            (2, 0, "1/2-1/2".to_string()),
            (2, 1, "2-0".to_string()),
            (3, 0, "1-1".to_string()),
            (3, 1, "*".to_string()),
        ];
        let results: Vec<(u32, u32, GameResult)> = recorded_results(&ended)
            .into_iter()
            .map(|g| (g.round, g.board, g.result))
            .collect();
        assert_eq!(
            results,
            [
                (1, 0, GameResult::FirstWins),
                (1, 1, GameResult::SecondWins),
                (2, 0, GameResult::Draw),
                (2, 1, GameResult::FirstWins),
                (3, 0, GameResult::Draw),
            ]
        );
    }
}
