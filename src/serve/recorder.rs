//! The one writer of the server's records: a thread of its own that takes what the rooms and connections report
//! ([`Job`]) in order and writes it, several at a time in one transaction when they queue up (one sync to the
//! disk for many moves). Nobody waits for it: a room sends and goes on, so a slow disk never slows a game.
//!
//! A room knows its game by a key of its own ([`RecordKey`]); the recorder maps it to the game's number in the
//! records when the game starts (or, for a game resumed after a restart, is told the number).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;

use super::identity::Identity;
use super::records::{NewGame, Records};
use crate::engine::{Player, Players};
use crate::game::AnyGame;
use crate::store::{SavedGame, Store};

/// How many jobs at most go into one transaction.
const BATCH: usize = 512;

/// A room's name for its game in the records.
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
    /// A game started between these players.
    Start {
        /// The room's key for it.
        key: RecordKey,
        /// The variant's name.
        variant: String,
        /// Black's fingerprint.
        black: String,
        /// White's.
        white: String,
        /// Whether it changes ratings.
        rated: bool,
        /// The time control as written, empty for none.
        clock: String,
        /// The code it is joined by.
        code: String,
    },
    /// A game in the records, resumed after a restart under this key.
    Resume {
        /// The room's key for it.
        key: RecordKey,
        /// Its number in the records.
        id: i64,
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
    /// Answer once everything sent before has been written (for tests and a clean shutdown).
    Flush(std::sync::mpsc::Sender<()>),
}

/// Where jobs go. Cloning it is cheap; the thread ends when the last one is dropped.
#[derive(Clone, Debug)]
pub struct Recorder(mpsc::Sender<Job>);

impl Recorder {
    /// Starts the thread, writing into `records`, and finished games into the folders under `players` (each
    /// player's, by their key) when given.
    pub fn start(records: Records, players: Option<PathBuf>) -> std::io::Result<Recorder> {
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("crowned-records".into())
            .spawn(move || write_jobs(records, players.as_deref(), &rx))?;
        Ok(Recorder(tx))
    }

    /// Sends a job; if the thread has gone (it never stops while a sender lives) the job is logged and dropped.
    pub fn send(&self, job: Job) {
        if let Err(e) = self.0.send(job) {
            tracing::error!(job = ?e.0, "the records thread has gone");
        }
    }

    /// Waits until everything sent before has been written (on a blocking thread: it waits for the disk).
    pub fn flush(&self) {
        let (tx, rx) = mpsc::channel();
        self.send(Job::Flush(tx));
        let _ = rx.recv();
    }
}

fn write_jobs(mut records: Records, players: Option<&Path>, jobs: &mpsc::Receiver<Job>) {
    let mut games: HashMap<RecordKey, i64> = HashMap::new();
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let begun = records.begin();
        if let Err(e) = &begun {
            tracing::error!(error = %e, "cannot begin writing the records");
        }
        let mut flushed = Vec::new();
        for job in batch {
            match job {
                Job::Flush(done) => {
                    flushed.push(done);
                    continue;
                }
                Job::File {
                    players: people,
                    game,
                    name,
                } => {
                    file_for_players(players, &people, *game, &name);
                    continue;
                }
                _ => {}
            }
            if let Err(e) = write(&mut records, &mut games, &job) {
                tracing::error!(error = %e, ?job, "cannot write the records");
            }
        }
        if begun.is_ok()
            && let Err(e) = records.commit()
        {
            tracing::error!(error = %e, "cannot commit the records");
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

fn write(
    records: &mut Records,
    games: &mut HashMap<RecordKey, i64>,
    job: &Job,
) -> Result<(), super::records::RecordsError> {
    let id = |key: &RecordKey| {
        games
            .get(key)
            .copied()
            .ok_or(super::records::RecordsError::NoGame(-1))
    };
    match job {
        Job::Seen(identity) => records.seen(identity),
        Job::Start {
            key,
            variant,
            black,
            white,
            rated,
            clock,
            code,
        } => {
            let id = records.start_game(&NewGame {
                variant,
                black,
                white,
                rated: *rated,
                clock,
                code,
            })?;
            games.insert(*key, id);
            Ok(())
        }
        Job::Resume { key, id } => {
            games.insert(*key, *id);
            Ok(())
        }
        Job::Move {
            key,
            ply,
            text,
            clocks,
        } => records.add_move(id(key)?, *ply, text, *clocks),
        Job::Clocks { key, ply, clocks } => records.note_clocks(id(key)?, *ply, *clocks),
        Job::TakeBack { key, ply } => records.take_back(id(key)?, *ply),
        Job::Finish {
            key,
            result,
            pdn,
            black_score,
        } => {
            let game = id(key)?;
            games.remove(key);
            records.finish_game(game, result, pdn, *black_score)
        }
        Job::Flush(_) | Job::File { .. } => Ok(()),
    }
}

/// Files `game` among the saved games of each of `people` (under `players`); a failure is logged.
fn file_for_players(players: Option<&Path>, people: &[Identity], game: AnyGame, name: &str) {
    let Some(players) = players else { return };
    let saved = SavedGame {
        game,
        // Both sides were people; read back, the game is one to browse or continue at one keyboard.
        players: Players {
            black: Player::Human,
            white: Player::Human,
        },
        file: None,
        clock: None,
    };
    for person in people.iter().filter(|p| !p.is_guest()) {
        let store = Store::under(&players.join(person.folder_name()));
        if let Err(e) = store.file_game(&saved, Some(name)) {
            tracing::error!(player = %person.fingerprint, error = %e, "cannot file a finished game");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_written_in_order_and_games_known_by_their_keys() {
        let dir = std::env::temp_dir().join(format!("crowned-recorder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("records.sqlite");
        let recorder = Recorder::start(
            Records::open(&path).expect("opens"),
            Some(dir.join("players")),
        )
        .expect("started");
        let player = |name: &str| Identity {
            fingerprint: format!("SHA256:{name}"),
            name: name.into(),
        };
        recorder.send(Job::Seen(player("ann")));
        recorder.send(Job::Seen(player("bob")));
        let key = RecordKey::fresh();
        recorder.send(Job::Start {
            key,
            variant: "english".into(),
            black: "SHA256:ann".into(),
            white: "SHA256:bob".into(),
            rated: true,
            clock: String::new(),
            code: "K7QX".into(),
        });
        for (ply, text) in ["11-15", "23-19"].into_iter().enumerate() {
            recorder.send(Job::Move {
                key,
                ply,
                text: text.into(),
                clocks: None,
            });
        }
        recorder.flush();
        let records = Records::open(&path).expect("reopens");
        let unfinished = records.unfinished_games().expect("listed");
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0].moves, ["11-15", "23-19"]);
        recorder.send(Job::Finish {
            key,
            result: "1-0".into(),
            pdn: "1. 11-15 23-19 1-0".into(),
            black_score: 1.0,
        });
        let mut game = AnyGame::default();
        game.tags_mut().set("Black", "ann");
        recorder.send(Job::File {
            players: vec![player("ann")],
            game: Box::new(game),
            name: "table K7QX ann vs bob".into(),
        });
        recorder.flush();
        assert!(records.unfinished().expect("listed").is_empty());
        assert_eq!(records.games_of("SHA256:bob").expect("games").len(), 1);
        let ann = Store::under(&dir.join("players").join(player("ann").folder_name()));
        let (text, _) = ann.saved_games_pdn().expect("filed");
        assert!(text.contains("[Black \"ann\"]"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
