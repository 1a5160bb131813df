//! Counting the replies to every move of a position at once, for perft.
//!
//! At the last two plies of a perft most positions are quiet: the side to move (S) has no capture, and neither
//! would its opponent (O) if it were to move. A simple move of S from `f` to `t` then changes O's simple moves in
//! only two places: O loses the steps into `t` and gains the steps into `f`. So the number of O's replies is
//! O's simple-move count in the parent, minus the O steps that end on `t`, plus those that end on `f`, as long
//! as the move gives O no capture. Summed over all of S's moves this is a handful of bitboard operations per
//! direction pair, with no child position built.
//!
//! A move gives O a capture only by putting the moved piece next to an O piece with an empty square beyond it
//! (which may be the square it came from), or by emptying a square an O piece can jump into over one of S's
//! pieces. Those moves are found with bitboards too and counted one by one.

use super::bits::{BitIter, Bits};
use super::geometry::Direction;
use super::movegen::{self, Mover, Sides, crowning_mask, jumpers, step, step_back};
use super::position::Position;
use super::ruleset::RuleSet;

/// The opposite direction.
#[cfg_attr(not(debug_assertions), inline(always))]
const fn reverse(dir: Direction) -> Direction {
    match dir {
        Direction::UpLeft => Direction::DownRight,
        Direction::UpRight => Direction::DownLeft,
        Direction::DownLeft => Direction::UpRight,
        Direction::DownRight => Direction::UpLeft,
    }
}

/// The pieces of the side `M` (whose pieces are `own`) that step in `dir`: all of them forwards, kings backwards.
#[cfg_attr(not(debug_assertions), inline(always))]
fn steppers<M: Mover, B: Bits>(own: B, kings: B, dir: Direction) -> B {
    if dir == M::FORWARD[0] || dir == M::FORWARD[1] {
        own
    } else {
        own & kings
    }
}

/// The pieces of the side `M` that capture in `dir`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn capturers<R: RuleSet, M: Mover>(own: R::Bits, kings: R::Bits, dir: Direction) -> R::Bits {
    if R::MEN_CAPTURE_BACKWARDS {
        own
    } else {
        steppers::<M, R::Bits>(own, kings, dir)
    }
}

/// The moves of a position and the replies to them all.
pub(crate) struct Replies {
    /// How many moves the side to move has.
    pub(crate) moves: u64,
    /// How many replies there are to them, summed over all of them.
    pub(crate) replies: u64,
}

/// The moves of `pos` (side to move `S`) and the total number of replies to them, or `None` when S must capture
/// or its opponent has a capture already, where the caller counts child by child.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn count_replies<R: RuleSet, S: Mover, const DUP: bool>(
    pos: &Position<R>,
) -> Option<Replies> {
    let s = Sides::of::<R, S>(pos);
    // Only diagonal jumps are accounted for below.
    if R::ORTHOGONAL_CAPTURES {
        return None;
    }
    // Kings are rare in most of a game tree; with none, every king term folds away.
    if s.kings.is_empty() {
        replies_of::<R, S, DUP>(pos, &s.without_kings())
    } else if R::FLYING_KINGS {
        // A flying king's moves change along whole diagonals, not just next to the moved piece.
        None
    } else {
        replies_of::<R, S, DUP>(pos, &s)
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn replies_of<R: RuleSet, S: Mover, const DUP: bool>(
    pos: &Position<R>,
    s: &Sides<R::Bits>,
) -> Option<Replies> {
    let s = *s;
    if !jumpers::<R, S>(&s).is_empty() || !jumpers::<R, S::Next>(&s.swapped()).is_empty() {
        return None;
    }
    let dirs = Direction::ALL;
    // Squares O could step into in each direction, and the squares its pieces could jump over.
    let mut step_into = [R::Bits::ZERO; 4];
    let mut jump_over = [R::Bits::ZERO; 4];
    for (i, dir) in dirs.into_iter().enumerate() {
        step_into[i] = step::<R>(steppers::<S::Next, R::Bits>(s.them, s.kings, dir), dir);
        jump_over[i] = step::<R>(capturers::<R, S::Next>(s.them, s.kings, dir), dir);
    }
    let replies_here: u64 = step_into
        .iter()
        .map(|&t| u64::from((t & s.empty).count_ones()))
        .sum();
    // Squares that, once emptied, let O jump into them over one of S's pieces.
    let mut opens_jump = R::Bits::ZERO;
    for (i, dir) in dirs.into_iter().enumerate() {
        opens_jump |= step::<R>(jump_over[i] & s.us, dir);
    }
    let crowning = crowning_mask::<R, S>();
    let men = s.us & !s.kings;
    let mut safe_moves = 0u64;
    let mut change: i64 = 0;
    let mut one_by_one = 0u64;
    let mut unsafe_moves = 0u64;
    for move_dir in dirs {
        let targets =
            step::<R>(steppers::<S, R::Bits>(s.us, s.kings, move_dir), move_dir) & s.empty;
        if targets.is_empty() {
            continue;
        }
        // Targets where the moved piece could be taken, or whose move opens a jump.
        let mut unsafe_targets = step::<R>(opens_jump, move_dir);
        for (d, dir) in dirs.into_iter().enumerate() {
            unsafe_targets |= if dir == reverse(move_dir) {
                jump_over[d]
            } else {
                jump_over[d] & step_back::<R>(s.empty, dir)
            };
        }
        unsafe_targets &= targets;
        let safe = targets & !unsafe_targets;
        let sources = step_back::<R>(safe, move_dir);
        safe_moves += u64::from(safe.count_ones());
        for t in step_into {
            change += i64::from((sources & t).count_ones()) - i64::from((safe & t).count_ones());
        }
        unsafe_moves += u64::from(unsafe_targets.count_ones());
        for bit in BitIter(unsafe_targets) {
            let to = R::Bits::bit(bit);
            let from = step_back::<R>(to, move_dir);
            let crowns = !(from & men).is_empty() && !(to & crowning).is_empty();
            let child = pos.after(S::COLOR, from, to, R::Bits::ZERO, crowns);
            one_by_one += movegen::count::<R, S::Next, DUP>(&child);
        }
    }
    let quiet = safe_moves as i64 * replies_here as i64 + change;
    Some(Replies {
        moves: safe_moves + unsafe_moves,
        replies: quiet as u64 + one_by_one,
    })
}
