//! The one writer of the server's records: a thread of its own that takes what the tables and connections report
//! ([`Job`]) in order and writes it, several at a time in one transaction when they queue up (one sync to the
//! disk for many moves: group commit).
//!
//! What a player will see (a move, a takeback, a result) comes as a [`Commit`]: jobs written together or not at
//! all, answered once their transaction is durable, so that the table shows them only then ([`Recorder::commit`]).
//! A commit is tried once: when the disk cannot take it, or the records refuse it, it is answered with why
//! ([`CommitError`]) and let go, and the table puts its game back as the records have it. Everything else (who
//! was seen, clocks noted between moves, tournaments' own changes) is sent and not waited for.
//!
//! A table knows its game by a key of its own ([`RecordKey`]); the recorder maps it to the game's number in the
//! records when the game starts (or, for a game resumed after a restart, is told the number).
//!
//! When the disk cannot take a batch (full, read-only, failing), the batch is rolled back; its commits are
//! answered and let go, the rest kept, in order, with everything that comes after it, and tried again every few
//! seconds until it is written: nothing is written twice. Whether the records are being written is there for the
//! tables to watch ([`Recorder::writing`]), so that the people at a table are told.
//!
//! A write the records refuse because the game's table is not this node's any more (one node of several, whose
//! lease on the table lapsed or was taken over: [`RecordsError::NotHeld`](super::records::RecordsError::NotHeld)) is let go, with every later job of
//! that game, and the table's code is reported ([`Recorder::lost_tables`]) so that the table stops here.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use tokio::sync::{mpsc as tokio_mpsc, watch};

use super::event_rules::director::DirectorAction;
use super::identity::Identity;
use super::ids::{Fingerprint, GameId, TableCode};
#[cfg(test)]
use super::records::SqliteRecords;
use super::records::{EventSpec, Records};
use crate::game::AnyGame;

mod batch;
mod commits;
mod filing;
use batch::{Batch, write_batch};
pub use commits::{Commit, CommitError, Committing, answer_of};
pub use filing::FiledHook;
use filing::OnFiled;

/// How many jobs at most go into one transaction.
const BATCH: usize = 512;

/// How often jobs the disk could not take are tried again.
const RETRY_EVERY: Duration = Duration::from_secs(5);

/// Jobs kept for writing past which the ones that can be done without (who was seen, clocks noted between
/// moves) are let go rather than kept: a disk full for days must not fill the memory too. Moves, starts and
/// results are always kept.
const MAX_WAITING: usize = 100_000;

/// A table's name for its game in the records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordKey(u64);

impl RecordKey {
    /// A key no other game of this server has.
    pub fn fresh() -> RecordKey {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        RecordKey(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Something to write.
#[derive(Debug)]
pub enum Job {
    /// A player connected.
    Seen(Identity),
    /// A player created an event (for the daily caps), in the commit that creates it.
    EventCreated {
        /// Their key.
        creator: Fingerprint,
        /// The address they connected from, when known.
        address: Option<String>,
        /// When, in seconds since the epoch.
        at: i64,
    },
    /// Something to tell `player` when they next connect (a game lost while they were away).
    News {
        /// Whom.
        player: Fingerprint,
        /// What.
        text: String,
    },
    /// A game started between these players.
    Start {
        /// The table's key for it.
        key: RecordKey,
        /// The variant's name.
        variant: String,
        /// Black. The records learn of both players with the game: their connections may have been noted by
        /// another node's recorder, not yet written, or let go under load (see [`Job::Seen`]).
        black: Identity,
        /// White.
        white: Identity,
        /// Whether it changes ratings.
        rated: bool,
        /// The time control as written, empty for none.
        clock: String,
        /// The code it is joined by.
        code: TableCode,
        /// The definition (TOML text) of a variant written as one; `None` for a built-in variant.
        definition: Option<String>,
    },
    /// A game in the records, resumed after a restart under this key.
    Resume {
        /// The table's key for it.
        key: RecordKey,
        /// Its number in the records.
        id: GameId,
    },
    /// A move was played.
    Move {
        /// The game.
        key: RecordKey,
        /// Its ply, from 0.
        ply: usize,
        /// The move as written in the variant's notation.
        text: String,
        /// Both clocks after it, in milliseconds.
        clocks: Option<[u64; 2]>,
    },
    /// Both clocks as they stand after `ply` moves (noted every few seconds while one runs, and as the server
    /// stops).
    Clocks {
        /// The game.
        key: RecordKey,
        /// Moves played.
        ply: usize,
        /// Black's and White's time left, in milliseconds.
        clocks: [u64; 2],
    },
    /// The moves from `ply` on were taken back.
    TakeBack {
        /// The game.
        key: RecordKey,
        /// The first ply taken back.
        ply: usize,
    },
    /// A game ended.
    Finish {
        /// The game.
        key: RecordKey,
        /// Its result as written.
        result: String,
        /// The whole game as PDN.
        pdn: String,
        /// Black's score, for the ratings.
        black_score: f64,
    },
    /// A finished game goes among these players' saved games too, so that `:load` finds it.
    File {
        /// The players (guests have no folder and are left out).
        players: Vec<Identity>,
        /// The game, with its tags.
        game: Box<AnyGame>,
        /// The file's name (made safe by the store).
        name: String,
    },
    /// A tournament was created, waiting for its start.
    CreateEvent(Box<EventSpec>),
    /// A change to a tournament: its director's action.
    Event {
        /// The event's code.
        event: TableCode,
        /// What changed.
        action: DirectorAction,
    },
    /// A tournament's pairing is played as this table's game (just started in the records).
    EventGame {
        /// The event's code.
        event: TableCode,
        /// The pairing's round.
        round: u32,
        /// Its board.
        board: u32,
        /// The table's key for the game.
        key: RecordKey,
    },
    /// Jobs that are written together or not at all, answered once durable.
    Commit(Commit),
    /// Read two players' ratings once everything sent before is written: a finished game's players see their
    /// ratings as the records hold them after it.
    Ratings(RatingsRead),
    /// Answer once everything sent before has been written, or kept to be tried again when the disk cannot
    /// take it (for tests and a clean shutdown).
    Flush(std::sync::mpsc::Sender<()>),
    /// Runs on the records as they are (a test's way to make the disk fail, or mend it).
    #[cfg(test)]
    Tamper(fn(&SqliteRecords)),
}

/// Two players' ratings in a variant, read for whoever waits on `reply` (rounded, as players see them).
#[derive(Debug)]
pub struct RatingsRead {
    /// Black's and White's players.
    pub players: [super::Fingerprint; 2],
    /// The variant, as ratings name it.
    pub variant: String,
    /// Where the ratings go; dropped unanswered when they cannot be read.
    pub reply: tokio::sync::oneshot::Sender<[i32; 2]>,
}

impl RatingsRead {
    /// Reads and answers; a read that fails is logged and left unanswered.
    fn answer(self, records: &mut dyn Records) {
        let black = records.rating(&self.players[0], &self.variant);
        let ratings =
            black.and_then(|black| Ok((black, records.rating(&self.players[1], &self.variant)?)));
        match ratings {
            Ok(((black, _), (white, _))) => {
                let _ = self
                    .reply
                    .send([black.rating.round() as i32, white.rating.round() as i32]);
            }
            Err(error) => tracing::warn!(%error, "cannot read the ratings after a game"),
        }
    }
}

impl Job {
    /// The game the job is about, if it is about one.
    fn key(&self) -> Option<RecordKey> {
        match self {
            Job::Start { key, .. }
            | Job::Resume { key, .. }
            | Job::Move { key, .. }
            | Job::Clocks { key, .. }
            | Job::TakeBack { key, .. }
            | Job::Finish { key, .. } => Some(*key),
            _ => None,
        }
    }

    /// Whether the job may be let go when too many wait: the next connection or clock note makes it good.
    fn can_wait_out(&self) -> bool {
        matches!(self, Job::Seen(_) | Job::Clocks { .. })
    }
}

/// Where jobs go. Cloning it is cheap; the thread ends when the last one is dropped.
#[derive(Clone, Debug)]
pub struct Recorder {
    jobs: mpsc::Sender<Job>,
    writing: watch::Receiver<bool>,
    filed: OnFiled,
    /// The codes of the tables whose writes the records refused as not this node's, until taken.
    lost_tables: Arc<Mutex<Option<LostTables>>>,
    /// A test's recorder holds the sender of [`Recorder::writing`] itself (the thread holds it otherwise), so
    /// that the tables do not hear it go.
    #[cfg(test)]
    _health: Option<Arc<watch::Sender<bool>>>,
}

/// The codes of the tables whose games' writes the records refused because this node does not hold them, each
/// once.
pub type LostTables = tokio_mpsc::UnboundedReceiver<TableCode>;

impl Recorder {
    /// Starts the thread, writing into `records`, and finished games into the folders under `players` (each
    /// player's, by their key) when given.
    pub fn start<R: Records + 'static>(
        records: R,
        players: Option<PathBuf>,
    ) -> std::io::Result<Recorder> {
        let (tx, rx) = mpsc::channel();
        let (health, writing) = watch::channel(true);
        let filed = OnFiled::default();
        let told = filed.clone();
        // Unbounded, yet small: a table is reported once.
        let (lost, lost_tables) = tokio_mpsc::unbounded_channel();
        thread::Builder::new()
            .name("crowned-records".into())
            .spawn(move || write_jobs(records, players.as_deref(), &told, &rx, &health, &lost))?;
        Ok(Recorder {
            jobs: tx,
            writing,
            filed,
            lost_tables: Arc::new(Mutex::new(Some(lost_tables))),
            #[cfg(test)]
            _health: None,
        })
    }

    /// Has `hook` called (on the recorder's thread) for each player a finished game is filed for, from now on;
    /// only the first hook set is kept.
    pub fn on_filed(&self, hook: FiledHook) {
        let _ = self.filed.0.set(hook);
    }

    /// The codes of the tables whose games' writes the records refused because this node no longer holds the
    /// tables (the records of one node of several): each table reported must stop here. Given once; `None` after.
    pub fn lost_tables(&self) -> Option<LostTables> {
        self.lost_tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// Sends a job; if the thread has gone (it never stops while a sender lives) the job is logged and dropped.
    pub fn send(&self, job: Job) {
        if let Err(e) = self.jobs.send(job) {
            tracing::error!(job = ?e.0, "the records thread has gone");
        }
    }

    /// Sends `jobs` to be written together or not at all: the answer comes once their transaction is durable
    /// (or with why it is not; also when the thread has gone).
    pub fn commit(&self, jobs: Vec<Job>) -> Committing {
        let (commit, answer) = Commit::new(jobs);
        self.send(Job::Commit(commit));
        answer
    }

    /// Whether the records are being written now (`false` while the disk cannot take them).
    pub fn is_writing(&self) -> bool {
        *self.writing.borrow()
    }

    /// Whether the records are being written (`false` while the disk cannot take them, and jobs wait in memory
    /// to be tried again), to watch for changes.
    pub fn writing(&self) -> watch::Receiver<bool> {
        self.writing.clone()
    }

    /// Waits until everything sent before has been written (on a blocking thread: it waits for the disk).
    pub fn flush(&self) {
        let (tx, rx) = mpsc::channel();
        self.send(Job::Flush(tx));
        let _ = rx.recv();
    }

    /// Waits (off the async threads) until the records have everything sent to them so far: whether they have
    /// (else the recorder is behind, or the disk or the database away).
    pub async fn caught_up(&self) -> bool {
        let recorder = self.clone();
        tokio::task::spawn_blocking(move || {
            recorder.flush();
            recorder.is_writing()
        })
        .await
        .unwrap_or(false)
    }
}

#[cfg(test)]
impl Recorder {
    /// A recorder whose jobs come out of the receiver as they are sent, commits unanswered: the test answers
    /// them, as the records would (or would not).
    pub(crate) fn by_hand() -> (Recorder, mpsc::Receiver<Job>) {
        let (tx, rx) = mpsc::channel();
        let (health, writing) = watch::channel(true);
        let recorder = Recorder {
            jobs: tx,
            writing,
            filed: OnFiled::default(),
            lost_tables: Arc::default(),
            _health: Some(Arc::new(health)),
        };
        (recorder, rx)
    }
}

/// Writes jobs as they come, in batches, until every sender has gone; jobs the disk cannot take wait, in
/// order, and are tried again every [`RETRY_EVERY`].
fn write_jobs<R: Records + 'static>(
    mut records: R,
    players: Option<&Path>,
    filed: &OnFiled,
    jobs: &mpsc::Receiver<Job>,
    health: &watch::Sender<bool>,
    lost: &tokio_mpsc::UnboundedSender<TableCode>,
) {
    let mut games: HashMap<RecordKey, GameId> = HashMap::new();
    // The games whose writes were refused as not this node's: their later jobs are let go too.
    let mut fenced: HashSet<RecordKey> = HashSet::new();
    // Jobs to write, oldest first: those received, after those the disk could not take yet.
    let mut waiting: VecDeque<Job> = VecDeque::new();
    let mut open = true;
    while open || !waiting.is_empty() {
        let next = if waiting.is_empty() {
            jobs.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else if *health.borrow() {
            Err(RecvTimeoutError::Timeout)
        } else {
            jobs.recv_timeout(RETRY_EVERY)
        };
        match next {
            #[cfg(test)]
            Ok(Job::Tamper(tamper)) => tamper_with(&mut records, tamper),
            Ok(job) => keep(&mut waiting, job),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // The server has stopped: one last try for what waits.
                if !open {
                    let lost = waiting.len();
                    tracing::error!(
                        jobs = lost,
                        "the records could not be written before the server stopped"
                    );
                    break;
                }
                open = false;
            }
        }
        while let Ok(job) = jobs.try_recv() {
            #[cfg(test)]
            if let Job::Tamper(tamper) = job {
                tamper_with(&mut records, tamper);
                continue;
            }
            keep(&mut waiting, job);
        }
        let take = waiting.len().min(BATCH);
        let batch: Vec<Job> = waiting.drain(..take).collect();
        let Batch {
            written,
            unwritten,
            mut flushed,
        } = write_batch(
            &mut records,
            &mut games,
            &mut fenced,
            lost,
            players,
            filed,
            batch,
        );
        for job in unwritten.into_iter().rev() {
            waiting.push_front(job);
        }
        if !written {
            // Nothing more can be written for now: whoever waits for a flush (a stopping server) is answered,
            // with the jobs kept, and the commits that came meanwhile are answered at once: none waits for the
            // next try, and a table puts its game back as the records have it.
            waiting = waiting
                .drain(..)
                .filter_map(|job| match job {
                    Job::Flush(done) => {
                        flushed.push(done);
                        None
                    }
                    Job::Commit(commit) => {
                        commit.answer(Err(CommitError::Unwritable));
                        None
                    }
                    job => Some(job),
                })
                .collect();
        }
        health.send_if_modified(|was| {
            let changed = *was != written;
            if changed && written {
                tracing::info!("the records are written again");
            } else if changed {
                tracing::error!(
                    jobs = waiting.len(),
                    "the records cannot be written; what comes is kept in memory and tried again every 5 s"
                );
            }
            *was = written;
            changed
        });
        // Answered once the tables can see how the writing went.
        for done in flushed {
            let _ = done.send(());
        }
    }
}

/// Adds `job` to those waiting, unless too many wait and it is one that can be let go.
fn keep(waiting: &mut VecDeque<Job>, job: Job) {
    if waiting.len() >= MAX_WAITING && job.can_wait_out() {
        return;
    }
    waiting.push_back(job);
}

/// Runs a test's `tamper` on the records, when they are SQLite's (the only ones a test fails on purpose).
#[cfg(test)]
fn tamper_with(records: &mut dyn std::any::Any, tamper: fn(&SqliteRecords)) {
    if let Some(sqlite) = records.downcast_mut::<SqliteRecords>() {
        tamper(sqlite);
    }
}

#[cfg(test)]
#[path = "recorder_tests.rs"]
mod tests;
