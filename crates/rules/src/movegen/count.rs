//! Counting legal moves without visiting them, for the last ply of perft.

use super::super::bits::{BitIter, Bits};
use super::super::geometry::Direction;
use super::super::position::Position;
use super::super::ruleset::RuleSet;
use super::captures::forward_men;
use super::{
    CaptureSink, Mover, Sides, crowning_mask, generate_captures, jumpers, jumpers_in, ray, step,
    step_back,
};

/// Counts captures without keeping them.
struct Tally(u64);

impl<B> CaptureSink<B> for Tally {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn capture(&mut self, _: B, _: B, _: B, _: &[u8], _: bool) {
        self.0 += 1;
    }
}

/// The number of legal moves of `pos` (side to move `S`). Simple moves are counted a direction at a time.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn count<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>) -> u64 {
    let s = Sides::of::<R, S>(pos);
    // Kings are rare in most of a game tree; with none, every king term folds away.
    if s.kings.is_empty() {
        count_sides::<R, S, DUP>(&s.without_kings())
    } else {
        count_sides::<R, S, DUP>(&s)
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn count_sides<R: RuleSet, S: Mover, const DUP: bool>(s: &Sides<R::Bits>) -> u64 {
    let jumpers = jumpers::<R, S>(s);
    if !jumpers.is_empty() {
        return count_captures::<R, S, DUP>(s, jumpers);
    }
    let own_kings = s.us & s.kings;
    let mut n = 0;
    if R::FLYING_KINGS {
        let men = s.us & !s.kings;
        for dir in S::FORWARD {
            n += (step::<R>(men, dir) & s.empty).count_ones();
        }
        if !own_kings.is_empty() {
            for dir in Direction::ALL {
                // Rays of different kings never overlap: the nearer king blocks the farther one's.
                n += (ray::<R>(own_kings, dir, s.empty) & s.empty).count_ones();
            }
        }
    } else {
        for dir in S::FORWARD {
            n += (step::<R>(s.us, dir) & s.empty).count_ones();
        }
        for dir in S::BACKWARD {
            n += (step::<R>(own_kings, dir) & s.empty).count_ones();
        }
    }
    u64::from(n)
}

/// The number of capture routes open to `jumpers`, counted without recording them.
#[cfg_attr(not(debug_assertions), inline(always))]
fn count_captures<R: RuleSet, S: Mover, const DUP: bool>(
    s: &Sides<R::Bits>,
    jumpers: R::Bits,
) -> u64 {
    if !forward_men::<R>() {
        // Men that turn back or become kings, or the majority rule: the general search over all pieces.
        let mut tally = Tally(0);
        generate_captures::<R, S, _, DUP>(s, jumpers, &mut tally);
        return tally.0;
    }
    // Most captures are single jumps: count those for all men at once, and follow only the landings from which
    // the man can jump again.
    let crowning = crowning_mask::<R, S>();
    let men = jumpers & !s.kings;
    let mut n = 0;
    for dir in S::FORWARD {
        let land = step::<R>(step::<R>(men, dir) & s.them, dir) & s.empty;
        let again = land
            & !crowning
            & (jumpers_in::<R>(land, s, S::FORWARD[0]) | jumpers_in::<R>(land, s, S::FORWARD[1]));
        n += u64::from((land & !again).count_ones());
        for bit in BitIter(again) {
            let at = R::Bits::bit(bit);
            let over = step_back::<R>(at, dir);
            n += man_routes::<R, S>(at, over, s.them, s.empty, crowning);
        }
    }
    let king_jumpers = jumpers & s.kings;
    if !king_jumpers.is_empty() {
        let mut tally = Tally(0);
        generate_captures::<R, S, _, DUP>(s, king_jumpers, &mut tally);
        n += tally.0;
    }
    n
}

/// The number of complete capture routes of a forward-capturing man standing on `at` after taking `captured`.
/// Returns 1 when it can take nothing more (the route ends here).
fn man_routes<R: RuleSet, S: Mover>(
    at: R::Bits,
    captured: R::Bits,
    them: R::Bits,
    empty: R::Bits,
    crowning: R::Bits,
) -> u64 {
    let mut n = 0;
    for dir in S::FORWARD {
        let over = step::<R>(at, dir) & them & !captured;
        let land = step::<R>(over, dir) & empty;
        if !land.is_empty() {
            n += if !(land & crowning).is_empty() {
                1
            } else {
                man_routes::<R, S>(land, captured | over, them, empty, crowning)
            };
        }
    }
    n.max(1)
}
