//! Building the endgame databases ([`build()`]) by retrograde analysis: solving the tables of a signature and its
//! swap together, in an order where every capture and crowning leads into a table already built.
//!
//! A signature's positions only lead, by quiet moves, to positions of its swap (the same pieces, the other side
//! to move); captures and crownings *convert* into signatures solved before (fewer pieces, or one man fewer).
//! So the pair is solved alone, in three steps:
//! 1. **Forward**: each position's converting moves are looked up in the finished tables. A position with a
//!    converting win is a win in 1; one without quiet moves is decided now (a loss in 0 with no move at all).
//!    The others keep a count of their quiet moves and whether a conversion draws.
//! 2. **Backward**, by distance: the positions decided at distance `d` are unmade one quiet move at a time.
//!    A predecessor of a loss is a win at `d + 1`; a predecessor of a win loses one count, and when it reaches
//!    zero, it is a loss at `d + 1` (its longest way) unless a conversion draws. Going by distance makes each
//!    result's distance exact: wins take the shortest way to a conversion, losses the longest.
//! 3. What is never decided is a draw.
//!
//! Both steps run on every thread over chunks of positions, with atomic bytes per position.

use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crowned_engine::egdb::file::{Stored, TableFile, file_name, write_table};
use crowned_engine::egdb::{
    DbValue, EgdbError, Layout, MAX_DISTANCE, MAX_PIECES, Material, Outcomes, Squares, Wld,
};
use crowned_engine::moves::{MoveBuf, moves_of};

/// One table, built or found on disk, as the build reports it.
#[derive(Clone, Debug)]
pub struct TableReport {
    /// Its signature.
    pub material: Material,
    /// Positions in it.
    pub positions: u64,
    /// Wins, draws and losses for the side to move (zero when read from disk).
    pub counts: [u64; 3],
    /// The longest distance to conversion.
    pub longest: u16,
    /// The file's size.
    pub bytes: u64,
    /// Time spent on it.
    pub time: Duration,
    /// Whether it was already on disk (an earlier, interrupted build).
    pub resumed: bool,
}

/// How many positions the tables of up to `pieces` pieces hold.
pub fn positions_up_to(pieces: u32) -> u64 {
    Material::all_up_to(pieces)
        .into_iter()
        .map(|m| Layout::new(m).size())
        .sum()
}

/// Builds every table of up to `pieces` pieces into `dir`, on `threads` threads, keeping the tables already
/// there (a build that was interrupted goes on where it stopped; a damaged table is built again).
/// `advance` is told of positions as they are done; `report` of each table as it is finished.
pub fn build(
    dir: &Path,
    pieces: u32,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
    report: &mut dyn FnMut(&TableReport),
) -> Result<(), EgdbError> {
    build_tables(dir, pieces, None, threads, advance, report)
}

/// Builds the table of `target` and its swap into `dir`, with only the tables they lead into (by captures and
/// crownings, and from those on): what one signature of a larger database costs, measured without building the
/// rest. Tables already there are kept, as in [`build()`].
pub fn build_one(
    dir: &Path,
    target: Material,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
    report: &mut dyn FnMut(&TableReport),
) -> Result<(), EgdbError> {
    build_tables(dir, target.pieces(), Some(target), threads, advance, report)
}

/// Whether a position of `m` may be reached from one of `target` by captures and crownings: each side of `m`
/// fits within one side of `target` (no more men, no more pieces; men may have been crowned), the sides taken
/// either way round. More than the tables really reached, never fewer.
pub fn may_lead_to(target: Material, m: Material) -> bool {
    let within = |men: u8, kings: u8, of_men: u8, of_kings: u8| {
        men <= of_men && men + kings <= of_men + of_kings
    };
    let fits = |t: Material| {
        within(m.our_men, m.our_kings, t.our_men, t.our_kings)
            && within(m.their_men, m.their_kings, t.their_men, t.their_kings)
    };
    fits(target) || fits(target.swapped())
}

/// The tables of up to `pieces` pieces, or with `only` those `only` may lead to.
fn build_tables(
    dir: &Path,
    pieces: u32,
    only: Option<Material>,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
    report: &mut dyn FnMut(&TableReport),
) -> Result<(), EgdbError> {
    std::fs::create_dir_all(dir).map_err(|e| EgdbError::io(dir, e))?;
    let mut solved = Solved::default();
    let mut done = HashSet::new();
    for m in Material::all_up_to(pieces.min(MAX_PIECES)) {
        if !done.insert(m) || only.is_some_and(|t| !may_lead_to(t, m)) {
            continue;
        }
        let pair: Vec<Material> = if m.swapped() == m {
            vec![m]
        } else {
            done.insert(m.swapped());
            vec![m, m.swapped()]
        };
        let started = Instant::now();
        if let Some(tables) = read_pair(dir, &pair) {
            // A table that does not read back whole is built again with its pair.
            if let Ok(loaded) = load_pair(&tables, &solved, threads) {
                for (layout, outcomes, longest) in loaded {
                    advance(layout.size());
                    report(&TableReport {
                        material: layout.material(),
                        positions: layout.size(),
                        counts: [0; 3],
                        longest,
                        bytes: std::fs::metadata(dir.join(file_name(layout.material())))
                            .map_or(0, |md| md.len()),
                        time: started.elapsed(),
                        resumed: true,
                    });
                    solved.insert(layout, outcomes);
                }
                continue;
            }
        }
        for solution in solve_pair(&pair, &solved, threads, advance)? {
            let material = solution.layout.material();
            let bytes = write_table(&dir.join(file_name(material)), material, &solution.stored)?;
            report(&TableReport {
                material,
                positions: solution.layout.size(),
                counts: solution.counts,
                longest: solution.longest,
                bytes,
                time: started.elapsed(),
                resumed: false,
            });
            solved.insert(solution.layout, solution.outcomes);
        }
    }
    Ok(())
}

/// The exact outcomes of tables on disk, with their longest distances.
fn load_pair(
    tables: &[TableFile],
    solved: &Solved,
    threads: usize,
) -> Result<Vec<(Layout, Outcomes, u16)>, EgdbError> {
    tables
        .iter()
        .map(|table| {
            let layout = Layout::new(table.material());
            let stored = table.read_all()?;
            let outcomes = outcomes_of_stored(&layout, &stored, solved, threads)?;
            Ok((layout, outcomes, stored.longest()))
        })
        .collect()
}

/// The tables of `pair` if both are on disk and whole.
fn read_pair(dir: &Path, pair: &[Material]) -> Option<Vec<TableFile>> {
    pair.iter()
        .map(|&m| {
            let table = TableFile::open(&dir.join(file_name(m))).ok()?;
            let size = Layout::new(m).size();
            (table.material() == m && table.positions() == size).then_some(table)
        })
        .collect()
}

/// Finished tables, by signature, as outcomes.
#[derive(Default)]
pub struct Solved {
    tables: Vec<Option<(Layout, Outcomes)>>,
}

impl Solved {
    /// Keeps a finished table.
    pub fn insert(&mut self, layout: Layout, outcomes: Outcomes) {
        let s = layout.material().slot();
        if self.tables.len() <= s {
            self.tables.resize_with(s + 1, || None);
        }
        self.tables[s] = Some((layout, outcomes));
    }

    /// The outcome of `sq` for its side to move; a side without pieces has lost.
    #[inline]
    fn outcome(&self, sq: Squares) -> Result<Wld, EgdbError> {
        if sq.our_men | sq.our_kings == 0 {
            return Ok(Wld::Loss);
        }
        let m = sq.material();
        match self.tables.get(m.slot()) {
            Some(Some((layout, outcomes))) => Ok(outcomes.get(layout.index(sq))),
            _ => Err(EgdbError::Missing(m.name())),
        }
    }
}

/// What the moves of a position that leave its table say, and how many stay.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Exits {
    /// A converting move wins.
    pub win: bool,
    /// A converting move draws.
    pub draw: bool,
    /// Moves that stay in the pair of tables (quiet, not crowning).
    pub inside: u8,
    /// Any move at all.
    pub any: bool,
    /// The side to move must capture.
    pub capture: bool,
}

/// Looks at the moves of `sq`, converting ones looked up in `solved`.
pub(crate) fn exits(
    sq: Squares,
    solved: &Solved,
    buf: &mut MoveBuf<u64>,
) -> Result<Exits, EgdbError> {
    let pos = sq.position();
    moves_of(&pos, buf);
    let mut e = Exits {
        any: !buf.is_empty(),
        capture: buf.first().is_some_and(|m| m.is_capture()),
        ..Exits::default()
    };
    for m in buf.iter() {
        if !m.is_capture() && !m.crowns {
            e.inside += 1;
            continue;
        }
        match solved.outcome(Squares::of(&m.play(&pos)))? {
            Wld::Loss => {
                e.win = true;
                return Ok(e);
            }
            Wld::Draw => e.draw = true,
            Wld::Win => {}
        }
    }
    Ok(e)
}

/// The state byte of a position being solved: decided, or its count of undecided quiet moves (low six bits) and
/// whether a conversion draws.
const DECIDED: u8 = 0xFF;
/// Decided, and the side to move must capture: the stored byte is free for the compressor.
const DECIDED_CAPTURE: u8 = 0xFE;
const DRAWING_EXIT: u8 = 0x40;
const COUNT: u8 = 0x3F;

/// One table of the pair being solved.
struct Work {
    layout: Layout,
    codes: Vec<AtomicU16>,
    state: Vec<AtomicU8>,
}

/// A solved table: exact outcomes to keep, and the bytes to store.
pub struct Solution {
    /// The numbering.
    pub layout: Layout,
    /// The outcome of every position.
    pub outcomes: Outcomes,
    /// The values to store, where a position whose side must capture repeats the value before it (the probe
    /// resolves captures itself, and runs compress better).
    pub stored: Stored,
    /// Wins, draws and losses, for the side to move.
    pub counts: [u64; 3],
    /// The longest distance to conversion.
    pub longest: u16,
}

/// Runs `f` on chunks of `0..total` on `threads` threads.
fn in_chunks(
    threads: usize,
    total: u64,
    f: impl Fn(Range<u64>) -> Result<(), EgdbError> + Sync,
) -> Result<(), EgdbError> {
    const CHUNK: u64 = 1 << 16;
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= total {
                            return Ok(());
                        }
                        f(start..(start + CHUNK).min(total))?;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().unwrap_or(Err(EgdbError::Thread)))
    })
}

/// Solves `pair` (a signature and its swap, or one signature that is its own swap) from the tables in
/// `solved`. `advance` is told of positions as they are looked at.
pub fn solve_pair(
    pair: &[Material],
    solved: &Solved,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Solution>, EgdbError> {
    let work: Vec<Work> = pair
        .iter()
        .map(|&m| {
            let layout = Layout::new(m);
            let n = layout.size() as usize;
            Work {
                layout,
                codes: (0..n).map(|_| AtomicU16::new(0)).collect(),
                state: (0..n).map(|_| AtomicU8::new(0)).collect(),
            }
        })
        .collect();
    let other = |t: usize| if work.len() == 2 { 1 - t } else { t };
    // Distances are counted as they are found; the list grows as far as the longest (it starts short).
    let mut at_distance: Vec<AtomicU64> = (0..256).map(|_| AtomicU64::new(0)).collect();

    for w in &work {
        in_chunks(threads, w.layout.size(), |range| {
            let mut buf = MoveBuf::new();
            let len = range.end - range.start;
            for i in range {
                let e = exits(w.layout.squares(i), solved, &mut buf)?;
                let value = if e.win {
                    Some(DbValue::Win(1))
                } else if !e.any {
                    Some(DbValue::Loss(0))
                } else if e.inside == 0 {
                    Some(if e.draw {
                        DbValue::Draw
                    } else {
                        DbValue::Loss(1)
                    })
                } else {
                    None
                };
                // At most 8 pieces, so at most 32 quiet moves: the count fits its six bits.
                debug_assert!(e.inside <= COUNT);
                let state = match value {
                    Some(_) if e.capture => DECIDED_CAPTURE,
                    Some(_) => DECIDED,
                    None => e.inside | if e.draw { DRAWING_EXIT } else { 0 },
                };
                w.state[i as usize].store(state, Ordering::Relaxed);
                if let Some(v) = value {
                    w.codes[i as usize].store(v.code(), Ordering::Relaxed);
                    if let DbValue::Win(d) | DbValue::Loss(d) = v {
                        at_distance[usize::from(d)].fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            advance(len);
            Ok(())
        })?;
    }

    let mut d = 0u16;
    while d <= 1 || at_distance[usize::from(d)].load(Ordering::Relaxed) > 0 {
        if d >= MAX_DISTANCE {
            return Err(EgdbError::TooDeep(pair[0].name()));
        }
        if usize::from(d) + 2 >= at_distance.len() {
            at_distance.push(AtomicU64::new(0));
        }
        let at_distance = &at_distance;
        let (win, loss) = (DbValue::Win(d).code(), DbValue::Loss(d).code());
        for (t, w) in work.iter().enumerate() {
            let target = &work[other(t)];
            in_chunks(threads, w.layout.size(), |range| {
                for i in range {
                    let code = w.codes[i as usize].load(Ordering::Relaxed);
                    if d > 0 && code == win || code == loss {
                        let lost = code == loss;
                        for p in predecessors(w.layout.squares(i)) {
                            let p = target.layout.index(p) as usize;
                            if let Some(v) = settle(&target.state[p], lost, d + 1) {
                                target.codes[p].store(v.code(), Ordering::Relaxed);
                                at_distance[usize::from(d) + 1].fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                }
                Ok(())
            })?;
        }
        d += 1;
    }

    Ok(work.into_iter().map(finish).collect())
}

/// Tells an undecided predecessor that one of its quiet moves leads to a decided position (`lost`: a loss for
/// the side to move there). Returns its value if this decides it, by a win or a loss at `distance`.
fn settle(state: &AtomicU8, lost: bool, distance: u16) -> Option<DbValue> {
    let mut current = state.load(Ordering::Relaxed);
    loop {
        if current >= DECIDED_CAPTURE {
            return None;
        }
        let (next, value) = if lost {
            (DECIDED, Some(DbValue::Win(distance)))
        } else if current & COUNT == 1 {
            let value = (current & DRAWING_EXIT == 0).then_some(DbValue::Loss(distance));
            (DECIDED, value)
        } else {
            (current - 1, None)
        };
        match state.compare_exchange_weak(current, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return value,
            Err(seen) => current = seen,
        }
    }
}

/// The positions from which the side that just moved (their side in `sq`) reached `sq` by a quiet move that
/// does not crown, normalised for that side to move.
pub(crate) fn predecessors(sq: Squares) -> impl Iterator<Item = Squares> {
    let empty = !sq.occupied();
    let kings = steps_back(sq.their_kings, empty, 0..4)
        .map(move |their_kings| Squares { their_kings, ..sq });
    // Their men move up the board (to lower squares), so they came from below.
    let men =
        steps_back(sq.their_men, empty, 2..4).map(move |their_men| Squares { their_men, ..sq });
    kings.chain(men).map(Squares::flipped)
}

/// `set` before one of its pieces stepped from an empty neighbour in one of `directions` (columns of
/// [`NEIGHBOURS`]), for each such step.
fn steps_back(set: u32, empty: u32, directions: Range<usize>) -> impl Iterator<Item = u32> {
    bits(set).flat_map(move |s| {
        NEIGHBOURS[s as usize][directions.clone()]
            .iter()
            .flatten()
            .filter(move |&&t| empty & (1 << t) != 0)
            .map(move |&t| set ^ (1 << s) ^ (1 << t))
    })
}

/// The members of a set of squares.
fn bits(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros();
            set &= set - 1;
            s
        })
    })
}

/// The diagonal neighbours of each square: up-left, up-right, down-left, down-right ("down" is towards higher
/// squares).
static NEIGHBOURS: [[Option<u8>; 4]; 32] = neighbours();

const fn neighbours() -> [[Option<u8>; 4]; 32] {
    let mut table = [[None; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let row = (s / 4) as i32;
        let col = (2 * (s % 4) + if row % 2 == 0 { 1 } else { 0 }) as i32;
        let steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        let mut k = 0;
        while k < 4 {
            let (r, c) = (row + steps[k].0, col + steps[k].1);
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                table[s][k] = Some((r * 4 + c / 2) as u8);
            }
            k += 1;
        }
        s += 1;
    }
    table
}

/// The results of a solved table.
fn finish(w: Work) -> Solution {
    let n = w.codes.len();
    let mut stored = Vec::with_capacity(n);
    let mut counts = [0u64; 3];
    let mut longest = 0;
    let mut previous = 0;
    let codes: Vec<u16> = w.codes.into_iter().map(AtomicU16::into_inner).collect();
    for (code, state) in codes.iter().zip(w.state) {
        let value = DbValue::from_code(*code);
        match value {
            DbValue::Win(d) => {
                counts[0] += 1;
                longest = longest.max(d);
            }
            DbValue::Draw => counts[1] += 1,
            DbValue::Loss(d) => {
                counts[2] += 1;
                longest = longest.max(d);
            }
        }
        if state.into_inner() != DECIDED_CAPTURE {
            previous = *code;
        }
        stored.push(previous);
    }
    Solution {
        outcomes: Outcomes::from_values(codes.iter().map(|&c| DbValue::from_code(c))),
        layout: w.layout,
        stored: Stored::new(stored, longest),
        counts,
        longest,
    }
}

/// The exact outcomes of a table read back from disk, where positions that must capture hold a filler:
/// those are worked out again from the finished tables they capture into.
pub fn outcomes_of_stored(
    layout: &Layout,
    stored: &Stored,
    solved: &Solved,
    threads: usize,
) -> Result<Outcomes, EgdbError> {
    let fixed: Vec<AtomicU16> = (0..stored.len())
        .map(|i| AtomicU16::new(stored.value(i).code()))
        .collect();
    in_chunks(threads, layout.size(), |range| {
        let mut buf = MoveBuf::new();
        for i in range {
            let sq = layout.squares(i);
            if sq.position().must_capture() {
                let e = exits(sq, solved, &mut buf)?;
                let value = if e.win {
                    DbValue::Win(1)
                } else if e.draw {
                    DbValue::Draw
                } else {
                    DbValue::Loss(1)
                };
                fixed[i as usize].store(value.code(), Ordering::Relaxed);
            }
        }
        Ok(())
    })?;
    Ok(Outcomes::from_values(
        fixed
            .into_iter()
            .map(|c| DbValue::from_code(c.into_inner())),
    ))
}
