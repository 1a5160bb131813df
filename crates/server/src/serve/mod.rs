//! `crowned serve`: the game as an SSH server, one game per connection.
//!
//! Each connection is a [`Session`](crate::session::Session) like the local terminal's, with the SSH channel as
//! its screen and keyboard: the channel's bytes go through a streaming input parser ([`input`]), frames are
//! drawn with ratatui into the channel (only the cells that changed), and the window size comes from the pty and
//! window-change requests. Players are known by their key's fingerprint; each has a folder of their own (settings,
//! autosave, saved games) under the server's data folder, shared with the other nodes through the database when
//! the server is one of several ([`nodes::folders`]). Every game's searches go to one engine service with a
//! fixed number of threads and a fixed table memory, however many people play.
//!
//! Each game runs in a task of its own: a panic in one is caught by the runtime and ends that game alone.

pub mod at_event;
pub mod browser_links;
mod budget;
mod civility;
pub mod codes;
mod connected;
mod cut;
pub mod door;
mod driver;
mod elsewhere;
pub mod event_rules;
pub mod events;
mod handover;
mod health;
mod identity;
mod ids;
pub mod input;
mod limits;
mod lobby;
pub mod metrics;
pub mod nodes;
pub mod offered;
mod play;
mod player;
mod problems;
pub mod rating;
pub mod recorder;
pub mod records;
pub mod seating;
mod sharing;
mod supervise;
pub mod table;
pub mod tables;
pub mod text;
mod tv;

pub use door::{MAX_HEIGHT, MAX_WIDTH, clamp_size};
pub use identity::{Identity, MAX_NAME, display_name};
pub use ids::{Fingerprint, GameId, TableCode};
pub use limits::{Admission, ConnectionLimits, ConnectionRefusal, Quota};
pub use offered::{OfferProblem, Offered, OfferedVariant};

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use thiserror::Error;
use tokio::sync::watch;

use crate::engine::egdb::Egdb;
use crate::engine::{EngineConfig, EngineService};

/// How a server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Where each player's folder goes.
    pub players_dir: PathBuf,
    /// The server's records (who has played; games and ratings as people play each other).
    pub records: records::Place,
    /// The fingerprints of the only keys that may connect; `None` lets every key in.
    pub authorized: Option<HashSet<String>>,
    /// Whether a client without a key may play as a guest (whose games are not kept).
    pub guests: bool,
    /// Connections of signed-in players held at once, in all and from one address.
    pub players: Quota,
    /// Connections not signed in yet held at once, in all and from one address.
    pub strangers: Quota,
    /// How long a connection has to sign in.
    pub sign_in_deadline: Duration,
    /// How long a client may leave a frame waiting before it is cut off.
    pub client_stall: Duration,
    /// A game nobody types into for this long ends (its game is saved, as always).
    pub idle_timeout: Duration,
    /// How long a player who drops out of a game against a person keeps their seat.
    pub seat_grace: Duration,
    /// Search threads shared by every game.
    pub engine_threads: usize,
    /// Transposition-table memory shared by every game, in megabytes.
    pub engine_megabytes: usize,
    /// The endgame databases every game's engine probes, if any.
    pub egdb: Option<Arc<Egdb>>,
    /// The variants written as definitions that players may open tables with, besides the built-ins.
    pub variants: Offered,
    /// The problem trainer's collection, in order (the built-in problems, then the operator's).
    pub problems: Vec<crate::problems::Problem>,
    /// When this server is one node of several on one PostgreSQL database: how it joins them.
    pub nodes: Option<NodesSettings>,
    /// The events the server holds by itself, each in the words of `tournament new` (one with `at=HH:MM` comes
    /// back every day).
    pub tournaments: Vec<String>,
    /// How many events players may create (the operator's scheduled ones are never held back).
    pub event_caps: events::caps::EventCaps,
}

/// How a node joins the others.
#[derive(Clone, Debug)]
pub struct NodesSettings {
    /// The database the nodes share (the records' own).
    pub database: tokio_postgres::Config,
    /// This node's name, unique among the nodes.
    pub node: nodes::NodeName,
    /// How long a table's lease lasts without a heartbeat: how soon the tables of a node that died are taken over.
    pub lease_term: Duration,
}

/// What goes wrong in a server.
#[derive(Debug, Error)]
pub enum ServeError {
    /// Something on this machine failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The records cannot be used.
    #[error("{0}")]
    Records(#[from] records::RecordsError),
    /// The other nodes cannot be reached.
    #[error("{0}")]
    Nodes(#[from] nodes::NodesError),
    /// The players' folders cannot be shared with the other nodes.
    #[error("{0}")]
    Folders(#[from] nodes::FoldersError),
}

/// What every connection shares: the server as a door's connections see it (see [`door`]).
pub struct Shared {
    config: ServeConfig,
    engine: EngineService,
    /// Read from blocking tasks only: the records wait for the disk. Every write goes through the recorder.
    records: Arc<Mutex<dyn records::Records>>,
    recorder: recorder::Recorder,
    /// The tables of games between people.
    tables: Arc<tables::Tables>,
    /// The tournaments this node runs (and, on a server of several nodes, the way to the others').
    events: events::Events,
    shutdown: watch::Receiver<bool>,
    /// Raised as the server drains: it takes no new connection and stops when the last has left.
    draining: watch::Receiver<bool>,
    /// The players' folders shared with the other nodes, once this server has joined them (never on a single
    /// server: each player's folder is then only here).
    folders: OnceLock<Arc<nodes::Folders>>,
    /// The problem trainer's collection, in the order it is read.
    problems: Arc<Vec<crate::problems::Problem>>,
    /// The workers that prove the problem trainer's moves off its main lines, for every session.
    provers: crate::session::Provers,
}

impl Shared {
    /// How the server runs.
    pub fn config(&self) -> &ServeConfig {
        &self.config
    }

    /// The event with `code`, when this node runs it.
    pub fn event_here(&self, code: &TableCode) -> Option<events::EventHandle> {
        self.events.find(code)
    }

    /// A keyed player's files: their folder under the server's players folder.
    pub fn store_of(&self, identity: &Identity) -> crate::store::Store {
        crate::store::Store::under(&self.folder_of(identity))
    }

    /// A keyed player's folder under the server's players folder.
    fn folder_of(&self, identity: &Identity) -> PathBuf {
        self.config.players_dir.join(identity.folder_name())
    }

    /// Notes in the records that `identity` has connected (the recorder logs a failure; the game goes on).
    pub fn note_seen(&self, identity: &Identity) {
        self.recorder.send(recorder::Job::Seen(identity.clone()));
    }

    /// Reads the records on a blocking thread: `read`'s answer, or `None` (logged) when they cannot be read.
    pub async fn read_records<T: Send + 'static>(
        &self,
        read: impl FnOnce(&mut dyn records::Records) -> Result<T, records::RecordsError>
        + Send
        + 'static,
    ) -> Option<T> {
        let records = Arc::clone(&self.records);
        let answer = tokio::task::spawn_blocking(move || {
            let mut records = records.lock().unwrap_or_else(PoisonError::into_inner);
            read(&mut *records)
        })
        .await;
        match answer {
            Ok(Ok(value)) => Some(value),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "cannot read the records");
                None
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot read the records");
                None
            }
        }
    }
}

/// A running server's off switch: [`Shutdown::stop`] tells every game to end (each is saved) and the server to
/// stop taking connections; [`Shutdown::drain`] stops it taking new ones and lets it stop once the last one
/// has left.
#[derive(Clone, Debug)]
pub struct Shutdown {
    stop: Arc<watch::Sender<bool>>,
    drain: Arc<watch::Sender<bool>>,
}

impl Shutdown {
    /// A switch, off.
    pub fn new() -> Shutdown {
        Shutdown {
            stop: Arc::new(watch::channel(false).0),
            drain: Arc::new(watch::channel(false).0),
        }
    }

    /// Stops the server.
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// Drains the server: no new connection is taken (the web door answers `/readyz` with 503 and refuses new
    /// sessions), the players connected play on, and the server stops as the last one leaves.
    pub fn drain(&self) {
        self.drain.send_replace(true);
    }

    /// A receiver that changes when the server is told to stop.
    pub fn watch(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// A receiver that changes when the server is told to drain.
    pub fn watch_drain(&self) -> watch::Receiver<bool> {
        self.drain.subscribe()
    }
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

/// A server ready to take connections: its engine service started (and its table memory taken), its limits
/// set.
pub struct Server {
    shared: Arc<Shared>,
    limits: Arc<ConnectionLimits>,
    shutdown: Shutdown,
    /// The generation this node started as, when it is one of several (the fencing token of its writes and
    /// leases).
    generation: Option<i64>,
}

impl Server {
    /// What its connections share, for a door to open a player's connection with.
    pub fn shared(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    /// The limits on connections, shared by every door.
    pub fn limits(&self) -> Arc<ConnectionLimits> {
        Arc::clone(&self.limits)
    }

    /// The server's off switch.
    pub fn shutdown(&self) -> &Shutdown {
        &self.shutdown
    }

    /// A server with `config`, stopped by `shutdown`.
    pub fn new(config: ServeConfig, shutdown: Shutdown) -> Result<Server, ServeError> {
        let limits =
            ConnectionLimits::new(config.players, config.strangers, config.sign_in_deadline);
        let engine_config = EngineConfig::default()
            .with_table_megabytes(config.engine_megabytes)
            .with_egdb(config.egdb.clone());
        let engine = EngineService::new(config.engine_threads, engine_config)?;
        // Proofs take a fraction of a second each and come at the pace of people solving problems: two
        // workers at most, whatever the engine has.
        let provers = crate::session::Provers::new(config.engine_threads.clamp(1, 2))?;
        let problems = Arc::new(config.problems.clone());
        // The records are read (and the games in progress resumed) away from the event loop: a database
        // server's client blocks, and may not be used on an async thread.
        let (records, recorder, tables, resumed, restoring, known, generation) =
            off_the_event_loop(|| {
                let node = config
                    .nodes
                    .as_ref()
                    .map(|nodes| (nodes.node.as_str(), nodes.lease_term));
                let (records, recorder, generation) =
                    open_records(&config.records, &config.players_dir, node)?;
                let mut reader = records.lock().unwrap_or_else(PoisonError::into_inner);
                let unfinished = reader.unfinished_games()?;
                let tables = Arc::new(tables::Tables::new(Some(recorder.clone())));
                // Every event's code stays its own; those not finished are picked up again, with the results of
                // their games that ended and they had not kept (by a server on its own: one node of several takes
                // over the events no live node holds once it has joined them).
                let kept = reader.events()?;
                let known: HashSet<TableCode> =
                    kept.iter().map(|(spec, _)| spec.code.clone()).collect();
                let mut unfinished_events = Vec::new();
                if config.nodes.is_none() {
                    for (spec, _) in kept
                        .iter()
                        .filter(|(_, stage)| *stage != records::Stage::Finished)
                    {
                        if let Some(record) = reader.event(&spec.code)? {
                            let ended = reader.event_games_ended(&spec.code)?;
                            unfinished_events.push((record, ended));
                        }
                    }
                }
                let mut restoring = events::Restoring::new(unfinished_events);
                // One node of several resumes only the games no other node runs, once it has joined them.
                let resumed = match config.nodes {
                    Some(_) => 0,
                    None => resume_games(
                        &tables,
                        &recorder,
                        &mut *reader,
                        unfinished,
                        config.seat_grace,
                        &mut restoring,
                    ),
                };
                drop(reader);
                Ok::<_, ServeError>((
                    records, recorder, tables, resumed, restoring, known, generation,
                ))
            })?;
        let events = events::Events::new(
            &tables,
            recorder.clone(),
            config.seat_grace,
            config.event_caps,
            shutdown.watch(),
            known,
        );
        // Before any event runs: each reads the blocks between its players from them before it pairs.
        events.read_from(Arc::clone(&records));
        restoring.start(&events);
        let scheduled = config.tournaments.clone();
        if resumed > 0 {
            tracing::info!(
                games = resumed,
                "games in progress resumed from the records"
            );
        }
        let shared = Arc::new(Shared {
            config,
            engine,
            records,
            recorder,
            tables,
            events,
            shutdown: shutdown.watch(),
            draining: shutdown.watch_drain(),
            folders: OnceLock::new(),
            problems,
            provers,
        });
        tokio::spawn(events::schedule(Arc::downgrade(&shared), scheduled));
        Ok(Server {
            shared,
            limits,
            shutdown,
            generation,
        })
    }

    /// Joins the other nodes when the server is one of several (else does nothing): its list of tables becomes
    /// theirs too, the games no live node runs are resumed here, its heartbeat starts, and the players' folders
    /// are shared with the other nodes.
    pub async fn join_nodes(&self) -> Result<(), ServeError> {
        let Some(settings) = self.shared.config.nodes.clone() else {
            return Ok(());
        };
        let folders = nodes::Folders::connect(settings.database.clone()).await?;
        let _ = self.shared.folders.set(Arc::new(folders));
        sharing::push_filings(&self.shared);
        let tables = Arc::downgrade(&self.shared.tables);
        let tables_here: nodes::TablesHere =
            Arc::new(move |code: &TableCode| tables.upgrade()?.find(code).map(|(table, _)| table));
        let cluster = nodes::cluster::Cluster::start(
            settings.database,
            settings.node,
            settings.lease_term,
            self.generation,
            tables_here,
        )
        .await?;
        self.shared.tables.join_cluster(Arc::clone(&cluster));
        // Codes to open tables with, and the other nodes' tables and events, before the first player comes.
        cluster.beat(&[], &[]).await?;
        // The events before the games: a game of an event taken over here is linked to it here.
        let events = events::across::join(&self.shared, &cluster).await;
        let resumed = elsewhere::resume_unclaimed(&self.shared, &cluster).await;
        if !(resumed.complete && events.complete) {
            // The records did not answer for every game or event: the heartbeat looks again, so that nothing
            // this node held before it stopped is left with its lease renewed here and nothing running it.
            cluster.want_sweep();
        }
        tracing::info!(
            node = %cluster.node(),
            games = resumed.resumed,
            events = events.resumed,
            "joined the other nodes"
        );
        if let Some(lost) = self.shared.recorder.lost_tables() {
            tokio::spawn(elsewhere::stop_lost_tables(
                Arc::clone(&self.shared),
                Arc::clone(&cluster),
                lost,
            ));
        }
        tokio::spawn(handover::when_draining(
            Arc::clone(&self.shared),
            Arc::clone(&cluster),
        ));
        tokio::spawn(elsewhere::heartbeat(
            Arc::clone(&self.shared),
            cluster,
            settings.lease_term,
        ));
        Ok(())
    }

    /// Starts what a running server keeps doing beside its doors: cutting off, within a few seconds, every
    /// player banned while connected.
    pub fn start_watching_bans(&self) {
        tokio::spawn(watch_bans(
            Arc::clone(&self.shared),
            Arc::clone(&self.limits),
            self.shutdown.watch(),
        ));
    }

    /// Whether the server is draining, as a receiver that changes when it starts: a door then takes no new
    /// connection, and the server stops once the last has left ([`Server::drained`]).
    pub fn draining(&self) -> watch::Receiver<bool> {
        self.shutdown.watch_drain()
    }

    /// Whether a draining server's last connection has left (by any door): if so, it is stopped, and `true`.
    pub fn drained(&self) -> bool {
        if self.limits.held() > 0 {
            return false;
        }
        tracing::info!("drained: the last connection has left; stopping");
        self.shutdown.stop();
        true
    }

    /// After the doors have stopped taking connections: every game has been told to end (they watch the same
    /// switch), and the server gives them up to `grace` to save and say goodbye; then each table's clocks go to
    /// the records (a restart goes on from them, not from the last move) and everything sent to the records is
    /// on disk before the server goes.
    pub async fn wind_down(self, grace: Duration) {
        let deadline = tokio::time::Instant::now() + grace;
        while self.limits.held() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        note_every_clock(&self.shared.tables).await;
        let recorder = self.shared.recorder.clone();
        let _ = tokio::task::spawn_blocking(move || recorder.flush()).await;
    }
}

/// How long a stopping server waits for its tables to note their clocks (each does so at once; a table that does
/// not answer in this time is left, its clocks as last noted).
const NOTE_CLOCKS_PATIENCE: Duration = Duration::from_secs(2);

/// Asks every table to send its clocks to the records, and waits until each has (or [`NOTE_CLOCKS_PATIENCE`]).
async fn note_every_clock(tables: &tables::Tables) {
    let deadline = tokio::time::Instant::now() + NOTE_CLOCKS_PATIENCE;
    let mut answers = Vec::new();
    for table in tables.handles() {
        let (done, noted) = tokio::sync::oneshot::channel();
        let asked =
            tokio::time::timeout_at(deadline, table.send(table::Command::NoteClocks { done }));
        if matches!(asked.await, Ok(true)) {
            answers.push(noted);
        }
    }
    // All asked first, then all waited for: the tables note their clocks side by side.
    for noted in answers {
        let _ = tokio::time::timeout_at(deadline, noted).await;
    }
}

/// How often the server looks for bans made since (by the operator's `crowned serve ban`, on any node).
const BAN_WATCH: Duration = Duration::from_secs(5);

/// Cuts off, within [`BAN_WATCH`], every player connected with a key or from an address banned while they
/// play; a connection made after the ban is turned away at sign-in with its reason (`Connection::banned`).
async fn watch_bans(
    shared: Arc<Shared>,
    limits: Arc<ConnectionLimits>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(BAN_WATCH) => {}
            _ = stop.changed() => return,
        }
        let Some(bans) = shared.read_records(|records| records.bans()).await else {
            continue;
        };
        if bans.is_empty() {
            continue;
        }
        let (mut keys, mut addresses) = (HashSet::new(), HashSet::new());
        for ban in bans {
            match ban.target {
                records::conduct::BanTarget::Key(key) => {
                    keys.insert(key);
                }
                records::conduct::BanTarget::Address(address) => {
                    addresses.insert(address);
                }
            }
        }
        let cut = limits.cut_banned(|key, address| {
            key.is_some_and(|k| keys.contains(k)) || addresses.contains(&address.to_canonical())
        });
        if cut > 0 {
            tracing::info!(connections = cut, "banned while connected: cut off");
        }
    }
}

/// The records as a server opened them: a connection to read them, the recorder writing them on another, and
/// the generation the node started as (one node of several).
type Opened = (
    Arc<Mutex<dyn records::Records>>,
    recorder::Recorder,
    Option<i64>,
);

/// The records at `place`: one connection to read them, and the recorder writing them on another. The records of
/// the node `node` (with its lease term), one of several, take the name's next generation first, and write to a
/// game only while the node holds its table's lease as that generation.
fn open_records(
    place: &records::Place,
    players: &std::path::Path,
    node: Option<(&str, Duration)>,
) -> Result<Opened, ServeError> {
    let players = Some(players.to_path_buf());
    Ok(match place {
        records::Place::Sqlite(path) => {
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder)?;
            }
            let reader = records::SqliteRecords::open(path)?;
            let writer = recorder::Recorder::start(records::SqliteRecords::open(path)?, players)?;
            (Arc::new(Mutex::new(reader)), writer, None)
        }
        records::Place::Postgres(url) => {
            let mut reader = records::PostgresRecords::connect(url)?;
            // A node takes its name's next generation first: the fencing token of all its writes.
            let generation = match node {
                Some((node, term)) => Some(reader.claim_node(node, term)?),
                None => None,
            };
            let fenced = |records: records::PostgresRecords| match (node, generation) {
                (Some((node, _)), Some(generation)) => records.fenced_by(node, generation),
                _ => records,
            };
            let reader = fenced(reader);
            let writer = recorder::Recorder::start(
                fenced(records::PostgresRecords::connect(url)?),
                players,
            )?;
            tracing::info!(records = %url, ?generation, "the records are kept in PostgreSQL");
            (Arc::new(Mutex::new(reader)), writer, generation)
        }
    })
}

/// Runs `work`, which blocks, where blocking is allowed: in place on a multi-threaded runtime's thread (which
/// hands its other tasks on meanwhile), else as it is.
fn off_the_event_loop<T>(work: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

/// Opens a table for each game the records hold as started and not ended (the server stopped during it): its
/// players away until they come back, its clocks waiting for both. Returns how many were resumed; a game that
/// cannot be read back is logged and left in the records as it is.
fn resume_games(
    tables: &Arc<tables::Tables>,
    recorder: &recorder::Recorder,
    records: &mut dyn records::Records,
    unfinished: Vec<records::Unfinished>,
    grace: Duration,
    restoring: &mut events::Restoring,
) -> usize {
    unfinished
        .into_iter()
        .filter(|game| {
            let link = restoring.link(game.id);
            let id = game.id;
            match resume_linked(tables, recorder, records, game.clone(), grace, link) {
                Some(code) => {
                    restoring.resumed(id, code);
                    true
                }
                None => false,
            }
        })
        .count()
}

/// Opens a table for one game the records hold as started and not ended, linked to its tournament if it is an
/// event's; the table's code, or `None` (logged) when the game cannot be read back.
fn resume_linked(
    tables: &Arc<tables::Tables>,
    recorder: &recorder::Recorder,
    records: &mut dyn records::Records,
    game: records::Unfinished,
    grace: Duration,
    tournament: Option<table::EventLink>,
) -> Option<TableCode> {
    let id = game.id;
    match table::resumed_from(game, grace) {
        Ok((config, mut resumed_game)) => {
            // Both players' ratings, shown to the first back while the other is still away.
            if config.rated {
                let variant = config.game_type.to_string();
                resumed_game.ratings = resumed_game.seats.clone().map(|seat| {
                    match records.rating(&seat.fingerprint, &variant) {
                        Ok((rating, _)) => {
                            Some((rating.rating.round() as i32, rating.is_provisional()))
                        }
                        Err(e) => {
                            tracing::warn!(game = %id, error = %e, "cannot read a rating");
                            None
                        }
                    }
                });
            }
            recorder.send(recorder::Job::Resume {
                key: resumed_game.record,
                id,
            });
            let opened = match tournament {
                Some(link) => tables.open_resumed_in_event(config, resumed_game, link),
                None => tables.open(config, Some(resumed_game)),
            };
            opened.map(|(code, _)| code)
        }
        Err(why) => {
            tracing::error!(game = %id, %why, "cannot resume a game from the records");
            None
        }
    }
}
