//! Reading the databases while playing: a position's value, and the move that keeps it.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};

use super::file::{TableFile, value_in};
use super::index::{Layout, Material, Squares};
use super::values::{DbValue, Outcomes, Wld};
use super::wld::WldTables;
use super::{EgdbError, MAX_PIECES};
use crate::moves::{MoveBuf, moves_of};
use crowned_rules::{English, Move, Position};

/// Unpacked blocks kept: 8,192 blocks of 2,048 positions, 16 MiB (32 MiB for the rare tables of two bytes a
/// position).
const CACHE_SLOTS: usize = 8192;
const _: () = assert!(CACHE_SLOTS.is_power_of_two());

/// The most memory the win/draw/loss tables kept for the search may take: every table of up to the most pieces
/// whose tables all fit (those of up to 6 pieces take 643 MB), so that the 7-piece tables (8.6 GB more) stay
/// on disk behind the cache.
pub const OUTCOMES_BUDGET: u64 = 1 << 30;

/// An open endgame database: every table of up to [`Egdb::pieces`] pieces.
pub struct Egdb {
    dir: PathBuf,
    pieces: u32,
    /// Tables by signature slot.
    tables: Vec<Option<(TableFile, Layout)>>,
    cache: Vec<Mutex<Slot>>,
    /// Blocks read from the files and unpacked (cache misses), by every thread.
    loads: AtomicU64,
    /// The win/draw/loss outcome of every position of the tables of up to `in_memory` pieces, by signature
    /// slot: the search's probes need no more, and read them from memory rather than through the cache.
    outcomes: Arc<[OnceLock<Outcomes>]>,
    /// The most pieces whose tables are kept as outcomes ([`OUTCOMES_BUDGET`]); 0 for none.
    in_memory: u32,
    /// Starts making the outcomes, once.
    making: Once,
    /// The other rule sets' win/draw/loss tables found beside English draughts' (in memory).
    wld: Option<WldTables>,
}

thread_local! {
    /// Blocks this thread has read and unpacked, from any database: a search asks whether a probe of its own
    /// went to the file (and may have waited on the disk) without touching a counter other threads write.
    static LOADS_HERE: Cell<u64> = const { Cell::new(0) };
}

/// How many database blocks the calling thread has read and unpacked so far. A search compares it before and
/// after a probe: a probe that loaded a block may have waited on the disk for longer than thousands of nodes
/// take, so the search looks at its clock then rather than waiting for its next periodic check.
#[inline]
pub fn loads_on_this_thread() -> u64 {
    LOADS_HERE.with(Cell::get)
}

/// A cached block: which table and block (`u64::MAX` for none) and its bytes.
#[derive(Default)]
struct Slot {
    key: u64,
    bytes: Arc<[u8]>,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egdb")
            .field("dir", &self.dir)
            .field("pieces", &self.pieces)
            .finish_non_exhaustive()
    }
}

impl Egdb {
    /// Opens the database in `dir`: the largest piece count whose tables are all there (tables of a build still
    /// going on are left aside), and the other rule sets' win/draw/loss tables in the directories beside it
    /// (`egdb/english` has `egdb/international` and the others as siblings: [`WldTables::open`]). Without
    /// English tables but with others, [`Egdb::pieces`] is 0.
    pub fn open(dir: &Path) -> Result<Egdb, EgdbError> {
        let wld = dir.parent().and_then(WldTables::open);
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => Some(entries),
            Err(_) if wld.is_some() => None,
            Err(e) => return Err(EgdbError::io(dir, e)),
        };
        let mut tables: Vec<Option<(TableFile, Layout)>> = Vec::new();
        for entry in entries.into_iter().flatten().flatten() {
            let path = entry.path();
            let Some(material) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".egdb"))
                .and_then(Material::from_name)
            else {
                continue;
            };
            let table = TableFile::open(&path)?;
            let layout = Layout::new(material);
            if table.material() != material || table.positions() != layout.size() {
                return Err(EgdbError::Corrupt(
                    path,
                    "not the table its name says".into(),
                ));
            }
            let s = material.slot();
            if tables.len() <= s {
                tables.resize_with(s + 1, || None);
            }
            tables[s] = Some((table, layout));
        }
        let has = |m: Material| tables.get(m.slot()).is_some_and(Option::is_some);
        let pieces = (1..=MAX_PIECES)
            .take_while(|&n| {
                Material::all_up_to(n)
                    .into_iter()
                    .filter(|m| m.pieces() == n)
                    .all(has)
            })
            .last()
            .unwrap_or(0);
        if pieces < 2 && wld.is_none() {
            return Err(EgdbError::Empty(dir.to_path_buf()));
        }
        let pieces = if pieces < 2 { 0 } else { pieces };
        let outcome_bytes = |n: u32| -> u64 {
            Material::all_up_to(n)
                .into_iter()
                .map(|m| Layout::new(m).size().div_ceil(4))
                .sum()
        };
        let in_memory = (1..=pieces)
            .take_while(|&n| outcome_bytes(n) <= OUTCOMES_BUDGET)
            .last()
            .unwrap_or(0);
        Ok(Egdb {
            outcomes: (0..tables.len()).map(|_| OnceLock::new()).collect(),
            in_memory,
            making: Once::new(),
            dir: dir.to_path_buf(),
            pieces,
            tables,
            cache: (0..CACHE_SLOTS)
                .map(|_| {
                    Mutex::new(Slot {
                        key: u64::MAX,
                        bytes: Arc::from(Vec::new()),
                    })
                })
                .collect(),
            loads: AtomicU64::new(0),
            wld,
        })
    }

    /// The other rule sets' win/draw/loss tables, when there are some.
    pub fn wld(&self) -> Option<&WldTables> {
        self.wld.as_ref()
    }

    /// How many blocks have been read from the files and unpacked since the database was opened.
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// Reads every table file once on a thread of its own, so that the system keeps them in memory and the
    /// first probes of a game do not wait on the disk in the middle of a timed move. The files are read, not
    /// kept: the system's cache holds them for every engine process at once and gives the memory back when
    /// it needs it.
    pub fn warm_up(&self) {
        let paths: Vec<PathBuf> = self
            .tables
            .iter()
            .flatten()
            .map(|(table, _)| table.path().to_path_buf())
            .collect();
        let spawned = std::thread::Builder::new()
            .name("egdb-warm-up".into())
            .spawn(move || {
                let mut buf = vec![0u8; 1 << 20];
                for path in paths {
                    // A file that cannot be read is found again, with a warning, at its first probe.
                    let Ok(mut file) = std::fs::File::open(&path) else {
                        continue;
                    };
                    while matches!(std::io::Read::read(&mut file, &mut buf), Ok(n) if n > 0) {}
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("endgame database: no thread to read the tables ahead: {e}");
        }
    }

    /// The most pieces an English position may have to be in the database (0: only other rule sets' tables).
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Where the tables are.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The value of `pos` for its side to move, if it has few enough pieces. A table that cannot be read
    /// answers nothing (the search goes on without it).
    pub fn probe(&self, pos: &Position<English>) -> Option<DbValue> {
        let sq = Squares::of(pos);
        if sq.occupied().count_ones() > self.pieces || sq.their_men | sq.their_kings == 0 {
            return None;
        }
        if sq.our_men | sq.our_kings == 0 {
            return Some(DbValue::Loss(0));
        }
        if pos.must_capture() {
            // Tables do not keep these (their bytes are left to the compressor): look one capture ahead.
            let mut buf = MoveBuf::new();
            moves_of(pos, &mut buf);
            let mut best = DbValue::Loss(1);
            for m in &buf {
                match self.probe(&m.play(pos))? {
                    DbValue::Loss(_) => return Some(DbValue::Win(1)),
                    DbValue::Draw => best = DbValue::Draw,
                    DbValue::Win(_) => {}
                }
            }
            return Some(best);
        }
        self.lookup(sq)
    }

    /// The value of a position whose side to move has no capture (the caller knows; the search does), with its
    /// distance, through the cache of blocks.
    #[inline]
    pub fn probe_quiet(&self, pos: &Position<English>) -> Option<DbValue> {
        let sq = Squares::of(pos);
        if sq.occupied().count_ones() > self.pieces || sq.their_men | sq.their_kings == 0 {
            return None;
        }
        if sq.our_men | sq.our_kings == 0 {
            return Some(DbValue::Loss(0));
        }
        self.lookup(sq)
    }

    /// The outcome of a position whose side to move has no capture, for the search: from the outcomes kept in
    /// memory where they are made, else through the cache of blocks (and the first such probe starts making
    /// them in the background).
    #[inline]
    pub fn outcome_quiet(&self, pos: &Position<English>) -> Option<Wld> {
        let sq = Squares::of(pos);
        if sq.occupied().count_ones() > self.pieces || sq.their_men | sq.their_kings == 0 {
            return None;
        }
        if sq.our_men | sq.our_kings == 0 {
            return Some(Wld::Loss);
        }
        let s = sq.material().slot();
        if let Some(outcomes) = self.outcomes.get(s).and_then(OnceLock::get) {
            let (_, layout) = self.tables.get(s)?.as_ref()?;
            return Some(outcomes.get(layout.index(sq)));
        }
        if sq.occupied().count_ones() <= self.in_memory {
            self.start_keeping_outcomes();
        }
        self.lookup(sq).map(DbValue::outcome)
    }

    /// The same database with no outcomes kept in memory, every probe going through the cache of blocks (to
    /// measure what the memory gains).
    pub fn without_outcomes(mut self) -> Egdb {
        self.in_memory = 0;
        self
    }

    /// The most pieces whose tables' outcomes are kept in memory for the search (0 for none): the most whose
    /// outcomes fit in [`OUTCOMES_BUDGET`].
    pub fn pieces_in_memory(&self) -> u32 {
        self.in_memory
    }

    /// The memory the outcomes made so far take, in bytes.
    pub fn outcomes_bytes(&self) -> u64 {
        self.outcomes
            .iter()
            .filter_map(OnceLock::get)
            .map(|o| o.bytes() as u64)
            .sum()
    }

    /// Makes the outcomes of every table of up to [`Egdb::pieces_in_memory`] pieces that is not made yet, on
    /// this thread, and returns the memory they all take. A table that cannot be read is left to the files
    /// (its probes warn there).
    pub fn keep_outcomes(&self) -> u64 {
        make_outcomes(&self.outcome_jobs(), &self.outcomes);
        self.outcomes_bytes()
    }

    /// Starts making the outcomes on a thread of its own, once: the tables take a few seconds to read, and the
    /// search probes through the cache meanwhile.
    fn start_keeping_outcomes(&self) {
        self.making.call_once(|| {
            let jobs = self.outcome_jobs();
            let outcomes = Arc::clone(&self.outcomes);
            let spawned = std::thread::Builder::new()
                .name("egdb-outcomes".into())
                .spawn(move || make_outcomes(&jobs, &outcomes));
            if let Err(e) = spawned {
                tracing::warn!("endgame database: no thread to keep the outcomes in memory: {e}");
            }
        });
    }

    /// The tables whose outcomes are to be kept, by slot and file, fewest pieces first (the most probed).
    fn outcome_jobs(&self) -> Vec<(usize, PathBuf)> {
        let mut jobs: Vec<(u32, usize, PathBuf)> = self
            .tables
            .iter()
            .enumerate()
            .filter_map(|(s, t)| t.as_ref().map(|(table, _)| (s, table)))
            .filter(|(_, table)| table.material().pieces() <= self.in_memory)
            .map(|(s, table)| (table.material().pieces(), s, table.path().to_path_buf()))
            .collect();
        jobs.sort();
        jobs.into_iter().map(|(_, s, path)| (s, path)).collect()
    }

    fn lookup(&self, sq: Squares) -> Option<DbValue> {
        let s = sq.material().slot();
        let (table, layout) = self.tables.get(s)?.as_ref()?;
        let index = layout.index(sq);
        let block = index / table.block_len();
        let key = (s as u64) << 40 | block;
        let cached = &self.cache[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - CACHE_SLOTS.trailing_zeros())) as usize];
        let within = (index % table.block_len()) as usize;
        {
            let slot = cached.lock().ok()?;
            if slot.key == key {
                return value_in(&slot.bytes, table.width(), within);
            }
        }
        let bytes: Arc<[u8]> = match table.block(block) {
            Ok(bytes) => Arc::from(bytes),
            Err(e) => {
                tracing::warn!("endgame database: {e}");
                return None;
            }
        };
        self.loads.fetch_add(1, Ordering::Relaxed);
        LOADS_HERE.with(|n| n.set(n.get() + 1));
        let value = value_in(&bytes, table.width(), within);
        if let Ok(mut slot) = cached.lock() {
            *slot = Slot { key, bytes };
        }
        value
    }

    /// The move that keeps the value of `pos` best: a win by the shortest way to a conversion, a loss by the
    /// longest, else a draw. `None` if the position is not in the database or has no move.
    pub fn best_move(&self, pos: &Position<English>) -> Option<(Move, DbValue)> {
        let mut best: Option<(Move, DbValue)> = None;
        for m in pos.legal_moves() {
            let child = self.probe(&pos.play(&m))?;
            let converts = m.is_capture() || m.crowns();
            let after = |d: u16| if converts { 1 } else { d.saturating_add(1) };
            let value = match child {
                DbValue::Loss(d) => DbValue::Win(after(d)),
                DbValue::Win(d) => DbValue::Loss(after(d)),
                DbValue::Draw => DbValue::Draw,
            };
            if best.is_none_or(|(_, b)| better(value, b)) {
                best = Some((m, value));
            }
        }
        best
    }

    /// The line of best moves from `pos` through the database, up to `plies` moves.
    pub fn line(&self, pos: &Position<English>, plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < plies {
            let Some((m, value)) = self.best_move(&pos) else {
                break;
            };
            if value == DbValue::Draw {
                break;
            }
            line.push(m);
            pos = pos.play(&m);
        }
        line
    }
}

/// Makes the outcomes of the tables of `jobs` (slot and file) into `outcomes`, those not made yet. Each table
/// is opened again here, so that a thread of its own can do it.
fn make_outcomes(jobs: &[(usize, PathBuf)], outcomes: &[OnceLock<Outcomes>]) {
    for (s, path) in jobs {
        let Some(cell) = outcomes.get(*s) else {
            continue;
        };
        if cell.get().is_some() {
            continue;
        }
        match TableFile::open(path).and_then(|table| table.outcomes()) {
            // Made twice at once (a thread asked while the background made them): either is right.
            Ok(made) => {
                let _ = cell.set(made);
            }
            Err(e) => tracing::warn!("endgame database: outcomes not kept in memory: {e}"),
        }
    }
}

/// A position whose value in the tables is not the one its moves give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{fen}: the table says {stored:?}, its moves give {from_moves:?}")]
pub struct Mismatch {
    /// The position.
    pub fen: String,
    /// What the tables say.
    pub stored: Option<DbValue>,
    /// What the values after each move give.
    pub from_moves: Option<DbValue>,
}

impl Egdb {
    /// Checks `count` positions drawn at random (by `seed`) from the tables with the most pieces: each value
    /// must be the one its moves give from the values after them (the best for the side to move, distances
    /// included). Returns how many were checked.
    pub fn verify(&self, count: u64, seed: u64, advance: &dyn Fn(u64)) -> Result<u64, Mismatch> {
        let tables: Vec<Layout> = Material::all_up_to(self.pieces)
            .into_iter()
            .filter(|m| m.pieces() == self.pieces)
            .map(Layout::new)
            .collect();
        let mut rng = crate::rng::Rng::new(seed);
        for done in 0..count {
            let layout = &tables[rng.below(tables.len())];
            let index = rng.next_u64() % layout.size().max(1);
            let pos = layout.squares(index).position();
            let stored = self.probe(&pos);
            let from_moves = if pos.legal_moves().is_empty() {
                Some(DbValue::Loss(0))
            } else {
                self.best_move(&pos).map(|(_, v)| v)
            };
            if stored != from_moves || stored.is_none() {
                return Err(Mismatch {
                    fen: crowned_rules::to_fen(&pos),
                    stored,
                    from_moves,
                });
            }
            if done % 1024 == 1023 {
                advance(1024);
            }
        }
        Ok(count)
    }
}

/// Whether `a` is better than `b` for the side choosing.
fn better(a: DbValue, b: DbValue) -> bool {
    let rank = |v: DbValue| match v {
        DbValue::Win(d) => 1000 - i32::from(d),
        DbValue::Draw => 0,
        DbValue::Loss(d) => -1000 + i32::from(d),
    };
    rank(a) > rank(b)
}
