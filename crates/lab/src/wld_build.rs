//! Building the win/draw/loss tables of a rule set other than English draughts ([`build`]) by retrograde
//! analysis over the rule set's own move generator, so that flying kings, majority capture and crowning inside
//! a capture are exactly the game's.
//!
//! As for English draughts (`egdb_build`), a signature and its swap are solved together, after every signature
//! their captures and crownings lead into:
//! 1. **Forward**, on every thread: each position's moves are generated and played. A move into a finished
//!    table (a capture or a crowning) is looked up there: a loss for the opponent makes the position a win now,
//!    a draw is remembered. The moves that stay within the pair are counted. A position without a move is lost.
//! 2. **Backward**, from each position decided as a win or a loss: the quiet moves that lead to it are unmade.
//!    The candidates are every slide or step of the opponent's pieces back onto an empty square; each is kept
//!    only if it is a legal move of the position before (no capture was compulsory there, the piece may move so),
//!    checked with the rule set's generator. A predecessor of a loss is a win; a predecessor of a win counts one
//!    move fewer, and is lost when none is left, unless a capture or crowning draws.
//! 3. What is never decided is a draw.
//!
//! Without distances, the backward step needs no order: a first-in, first-out queue is enough.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::Instant;

use super::egdb_build::TableReport;
use crowned_engine::egdb::wld::{self, position_of, sets_of, shape_of};
use crowned_engine::egdb::{EgdbError, Layout, MAX_PIECES, Material, Outcomes, Sets, Shape, Wld};
use crowned_rules::{Color, RuleSet, Square};

/// A position not decided yet.
const UNKNOWN: u8 = 0;
/// The side to move wins.
const WIN: u8 = 1;
/// The side to move loses.
const LOSS: u8 = 2;
/// Nobody wins: decided early when every move is known.
const DRAW: u8 = 3;
/// A number that stands for no position (two men on one square).
const INVALID: u8 = 4;
/// Flag: a capture or crowning leads to a draw.
const DRAW_EXIT: u8 = 0x80;

/// How many positions the tables of up to `pieces` pieces hold on `shape`.
pub fn positions_up_to(shape: Shape, pieces: u32) -> u64 {
    Material::all_up_to(pieces)
        .into_iter()
        .map(|m| Layout::on(shape, m).size())
        .sum()
}

/// Builds every table of up to `pieces` pieces of rule set `R` into `dir`, on `threads` threads, keeping the
/// tables already there (an interrupted build goes on; a damaged table is built again). `advance` is told of
/// positions as they are done; `report` of each table as it is finished.
pub fn build<R: RuleSet>(
    dir: &Path,
    pieces: u32,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
    report: &mut dyn FnMut(&TableReport),
) -> Result<(), EgdbError> {
    let shape = shape_of::<R>()?;
    std::fs::create_dir_all(dir).map_err(|e| EgdbError::io(dir, e))?;
    let mut done = Finished {
        shape,
        tables: HashMap::new(),
    };
    let order = Material::all_up_to(pieces.min(MAX_PIECES));
    for &m in &order {
        if done.tables.contains_key(&m) {
            continue;
        }
        let pair: Vec<Material> = if m == m.swapped() {
            vec![m]
        } else {
            vec![m, m.swapped()]
        };
        let started = Instant::now();
        let layouts: Vec<Layout> = pair.iter().map(|&m| Layout::on(shape, m)).collect();
        if let Some(found) = read_pair::<R>(dir, &layouts) {
            for (layout, outcomes) in layouts.into_iter().zip(found) {
                let positions = layout.size();
                advance(positions);
                report(&TableReport {
                    material: layout.material(),
                    positions,
                    counts: [0; 3],
                    longest: 0,
                    bytes: file_size(&dir.join(wld::file_name(layout.material()))),
                    time: started.elapsed(),
                    resumed: true,
                });
                done.tables.insert(layout.material(), (layout, outcomes));
            }
            continue;
        }
        let solved = solve_pair::<R>(&done, &layouts, threads, advance)?;
        for (layout, states) in layouts.into_iter().zip(solved) {
            let material = layout.material();
            let (packed, counts) = pack(&states);
            let path = dir.join(wld::file_name(material));
            let bytes = wld::write_table(&path, R::VARIANT, material, layout.size(), &packed)?;
            report(&TableReport {
                material,
                positions: layout.size(),
                counts,
                longest: 0,
                bytes,
                time: started.elapsed(),
                resumed: false,
            });
            done.tables
                .insert(material, (layout, Outcomes::from_packed(packed)));
        }
    }
    Ok(())
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The pair's tables when both are on disk and sound.
fn read_pair<R: RuleSet>(dir: &Path, layouts: &[Layout]) -> Option<Vec<Outcomes>> {
    layouts
        .iter()
        .map(|l| {
            let path = dir.join(wld::file_name(l.material()));
            wld::read_table(&path, R::VARIANT, l.material(), l.size()).ok()
        })
        .collect()
}

/// The tables finished so far, in memory.
struct Finished {
    shape: Shape,
    tables: HashMap<Material, (Layout, Outcomes)>,
}

impl Finished {
    /// The outcome of normalised `sets` for its side to move.
    fn outcome(&self, sets: Sets) -> Result<Wld, EgdbError> {
        let m = sets.material();
        if m.our_men + m.our_kings == 0 {
            // Every piece taken: the side to move has no move.
            return Ok(Wld::Loss);
        }
        let (layout, outcomes) = self
            .tables
            .get(&m)
            .ok_or_else(|| EgdbError::Missing(m.name()))?;
        Ok(outcomes.get(layout.index_of(sets)))
    }
}

/// Outcomes packed four to a byte, and the wins, draws and losses counted.
fn pack(states: &[u8]) -> (Vec<u8>, [u64; 3]) {
    let mut packed = vec![0u8; states.len().div_ceil(4)];
    let mut counts = [0u64; 3];
    for (i, &s) in states.iter().enumerate() {
        let outcome = match s & !DRAW_EXIT {
            WIN => Wld::Win,
            LOSS => Wld::Loss,
            _ => Wld::Draw,
        };
        if s & !DRAW_EXIT != INVALID {
            counts[match outcome {
                Wld::Win => 0,
                Wld::Draw => 1,
                Wld::Loss => 2,
            }] += 1;
        }
        packed[i / 4] |= outcome.bits() << (2 * (i % 4));
    }
    (packed, counts)
}

/// One table of the pair being solved: a state and a count of undecided quiet moves per position.
struct Solving {
    states: Vec<u8>,
    counts: Vec<u8>,
}

/// Solves a signature and its swap (one table when they are the same), the tables they convert into being in
/// `done`; each table's states, [`UNKNOWN`] for a draw never decided.
fn solve_pair<R: RuleSet>(
    done: &Finished,
    layouts: &[Layout],
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Vec<u8>>, EgdbError> {
    let shape = done.shape;
    let mut tables: Vec<Solving> = layouts
        .iter()
        .map(|l| Solving {
            states: vec![UNKNOWN; l.size() as usize],
            counts: vec![0; l.size() as usize],
        })
        .collect();
    let in_pair = &|m: Material| layouts.iter().position(|l| l.material() == m);
    let mut queue = VecDeque::new();
    // Forward: every position's moves, on every thread over chunks.
    for (t, (table, layout)) in tables.iter_mut().zip(layouts).enumerate() {
        let chunk = (layout.size() as usize)
            .div_ceil(threads.max(1) * 8)
            .max(1 << 12);
        let results: Vec<Result<Vec<u64>, EgdbError>> = std::thread::scope(|scope| {
            let work: Vec<_> = table
                .states
                .chunks_mut(chunk)
                .zip(table.counts.chunks_mut(chunk))
                .enumerate()
                .collect();
            let ways = threads.max(1);
            let mut shares: Vec<Vec<_>> = (0..ways).map(|_| Vec::new()).collect();
            for (n, item) in work.into_iter().enumerate() {
                shares[n % ways].push(item);
            }
            let handles: Vec<_> = shares
                .into_iter()
                .map(|share| {
                    scope.spawn(move || {
                        let mut decided = Vec::new();
                        for (n, (states, counts)) in share {
                            let first = (n * chunk) as u64;
                            for (k, (state, count)) in
                                states.iter_mut().zip(counts.iter_mut()).enumerate()
                            {
                                let index = first + k as u64;
                                let sets = layout.sets(index);
                                (*state, *count) = forward::<R>(done, sets, in_pair)?;
                                if matches!(*state, WIN | LOSS) {
                                    decided.push(index);
                                }
                            }
                            advance(states.len() as u64);
                        }
                        Ok(decided)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(Err(EgdbError::Thread)))
                .collect()
        });
        for decided in results {
            queue.extend(decided?.into_iter().map(|i| (t, i)));
        }
    }
    // Backward: unmake quiet moves from every decided position.
    while let Some((t, index)) = queue.pop_front() {
        let lost = tables[t].states[index as usize] & !DRAW_EXIT == LOSS;
        let before = layouts[t].material().swapped();
        let p = in_pair(before).ok_or_else(|| EgdbError::Missing(before.name()))?;
        for pred in predecessors::<R>(shape, layouts[t].sets(index)) {
            let i = layouts[p].index_of(pred) as usize;
            let table = &mut tables[p];
            let (state, count) = (&mut table.states[i], &mut table.counts[i]);
            if *state & !DRAW_EXIT != UNKNOWN {
                continue;
            }
            if lost {
                *state = WIN;
                queue.push_back((p, i as u64));
            } else {
                *count -= 1;
                if *count == 0 {
                    if *state & DRAW_EXIT != 0 {
                        *state = DRAW;
                    } else {
                        *state = LOSS;
                        queue.push_back((p, i as u64));
                    }
                }
            }
        }
    }
    Ok(tables.into_iter().map(|t| t.states).collect())
}

/// The forward step for one position: its state ([`UNKNOWN`] with [`DRAW_EXIT`] perhaps, or decided) and
/// how many of its quiet moves stay within the pair.
fn forward<R: RuleSet>(
    done: &Finished,
    sets: Sets,
    in_pair: &dyn Fn(Material) -> Option<usize>,
) -> Result<(u8, u8), EgdbError> {
    if sets.our_men & sets.their_men != 0 {
        return Ok((INVALID, 0));
    }
    let pos = position_of::<R>(sets);
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok((LOSS, 0));
    }
    let mut state = UNKNOWN;
    let mut inside = 0u32;
    for mv in &moves {
        let next = sets_of(done.shape, &pos.play(mv));
        let m = next.material();
        if in_pair(m).is_some() && m.our_men + m.our_kings > 0 {
            inside += 1;
            continue;
        }
        match done.outcome(next)? {
            Wld::Loss => return Ok((WIN, 0)),
            Wld::Draw => state |= DRAW_EXIT,
            Wld::Win => {}
        }
    }
    Ok(match inside {
        0 if state & DRAW_EXIT != 0 => (DRAW, 0),
        0 => (LOSS, 0),
        // A quiet move per square a piece can reach: far below 255 with up to MAX_PIECES pieces.
        n => (state, n.min(255) as u8),
    })
}

/// The positions one quiet move before `sets` (normalised: the opponent of its side to move made that move),
/// normalised for their own side to move.
fn predecessors<R: RuleSet>(shape: Shape, sets: Sets) -> Vec<Sets> {
    let g = R::GEOMETRY;
    let after = position_of::<R>(sets);
    let empty = shape.all() & !sets.occupied();
    let mut found = Vec::new();
    let mut consider = |from: u64, to: u64, king: bool| {
        // `from` is where the piece stood before, `to` where it stands now; the mover was White ("them").
        let mut before = sets;
        if king {
            before.their_kings ^= from | to;
        } else {
            if from & shape.their_men() == 0 {
                return;
            }
            before.their_men ^= from | to;
        }
        let pos = position_of::<R>(before).with_side_to_move(Color::White);
        let legal = pos
            .legal_moves()
            .iter()
            .any(|m| !m.is_capture() && pos.play(m) == after);
        if legal {
            found.push(before.flipped(shape));
        }
    };
    for (pieces, king) in [(sets.their_kings, true), (sets.their_men, false)] {
        let mut rest = pieces;
        while rest != 0 {
            let square = rest.trailing_zeros();
            rest &= rest - 1;
            let (row, col) = g.row_col(Square::from_index(square as u8));
            for (dr, dc) in [(-1i32, -1i32), (-1, 1), (1, -1), (1, 1)] {
                let (mut r, mut c) = (row as i32, col as i32);
                loop {
                    (r, c) = (r + dr, c + dc);
                    if r < 0 || c < 0 {
                        break;
                    }
                    let Some(from) = g.at(r as u32, c as u32) else {
                        break;
                    };
                    let from = 1u64 << from.index();
                    if from & empty == 0 {
                        break;
                    }
                    consider(from, 1 << square, king);
                    if !king || !R::FLYING_KINGS {
                        break;
                    }
                }
            }
        }
    }
    found
}
