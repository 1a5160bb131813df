//! Capture generation: every complete capture route of the side to move.
//!
//! Captured pieces stay on the board until the move ends: they cannot be taken twice and a flying king cannot
//! pass over them. The square the capturing piece left is empty, so a king may come back through it.

use std::marker::PhantomData;

use smallvec::SmallVec;

use super::super::geometry::Direction;
use super::super::moves::{BitIter, MAX_PATH};
use super::super::ruleset::{CrowningInCapture, RuleSet};
use super::{CaptureSink, Mover, Sides, crowning_mask, jumpers_in, step, step_back};

/// Whether men capture forwards only and stop when crowned, as in English draughts. Then a man's captures can be
/// found for all men at once, and two routes of one man never take the same pieces.
pub(crate) const fn forward_men<R: RuleSet>() -> bool {
    !R::MEN_CAPTURE_BACKWARDS && matches!(R::CROWNING_IN_CAPTURE, CrowningInCapture::EndsMove)
}

/// Passes every capture route of the pieces in `jumpers` to `sink` (under the majority rule, only those that
/// take the most pieces). Without `DUP`, a route with the same effect as an earlier route of the same piece is
/// left out.
#[inline(always)]
pub(crate) fn generate_captures<R: RuleSet, S: Mover, K: CaptureSink, const DUP: bool>(
    s: &Sides,
    jumpers: u64,
    sink: &mut K,
) {
    if R::MAJORITY_CAPTURE {
        let mut found = Found::default();
        search::<R, S, _, DUP>(s, jumpers, &mut found);
        let most = found.0.iter().map(|c| c.captured.count_ones()).max();
        for c in found
            .0
            .iter()
            .filter(|c| Some(c.captured.count_ones()) == most)
        {
            sink.capture(c.from, c.to, c.captured, &c.path[..c.len], c.crowns);
        }
    } else {
        search::<R, S, K, DUP>(s, jumpers, sink);
    }
}

#[inline(always)]
fn search<R: RuleSet, S: Mover, K: CaptureSink, const DUP: bool>(
    s: &Sides,
    jumpers: u64,
    sink: &mut K,
) {
    let mut searched = jumpers;
    if forward_men::<R>() {
        let men = jumpers & !s.kings;
        searched = (jumpers & s.kings) | single_jumps::<R, S, K>(s, men, sink);
    }
    for bit in BitIter(searched) {
        let at = 1u64 << bit;
        let is_king = s.kings & at != 0;
        // Forward-only men cannot reach one end by two routes taking the same pieces: the piece taken on each
        // pair of rows fixes the route. Only kings (and men that turn back or become kings) need the check.
        let may_repeat = is_king || !forward_men::<R>();
        // Keeping duplicates means one route per order of capture, as the published perft tables count them. A
        // flying king may reach the same order through different landing squares; those routes are one.
        let merge = if DUP { R::FLYING_KINGS } else { may_repeat };
        let mut route = Route::<R, K> {
            from: at,
            them: s.them,
            empty: s.empty | at,
            crowning: crowning_mask::<R, S>(),
            path: [0; MAX_PATH],
            sink,
            seen: merge.then(SmallVec::new),
            by_order: DUP,
            rules: PhantomData,
        };
        if is_king {
            route.king(at, 0, 0, 0, false);
        } else {
            route.man::<S>(at, 0, 0, 0);
        }
    }
}

/// Passes on the captures of forward-capturing `men` that are single jumps, for all men at once, and returns
/// the men that have a landing square from which they can jump again (to be searched one by one).
#[inline(always)]
fn single_jumps<R: RuleSet, S: Mover, K: CaptureSink>(s: &Sides, men: u64, sink: &mut K) -> u64 {
    let crowning = crowning_mask::<R, S>();
    let mut lands = [0u64; 2];
    let mut again_from = 0;
    for (i, dir) in S::FORWARD.into_iter().enumerate() {
        lands[i] = step::<R>(step::<R>(men, dir) & s.them, dir) & s.empty;
        let again = lands[i]
            & !crowning
            & (jumpers_in::<R>(lands[i], s, S::FORWARD[0])
                | jumpers_in::<R>(lands[i], s, S::FORWARD[1]));
        again_from |= step_back::<R>(step_back::<R>(again, dir), dir);
    }
    for (i, dir) in S::FORWARD.into_iter().enumerate() {
        let single = lands[i] & !step::<R>(step::<R>(again_from, dir), dir);
        for bit in BitIter(single) {
            let to = 1u64 << bit;
            let over = step_back::<R>(to, dir);
            let from = step_back::<R>(over, dir);
            sink.capture(from, to, over, &[bit as u8], to & crowning != 0);
        }
    }
    again_from
}

/// One capture route found under the majority rule, kept until the longest is known.
struct FoundCapture {
    from: u64,
    to: u64,
    captured: u64,
    crowns: bool,
    len: usize,
    path: [u8; MAX_PATH],
}

#[derive(Default)]
struct Found(SmallVec<[FoundCapture; 16]>);

impl CaptureSink for Found {
    fn capture(&mut self, from: u64, to: u64, captured: u64, path: &[u8], crowns: bool) {
        let mut full = [0; MAX_PATH];
        full[..path.len()].copy_from_slice(path);
        self.0.push(FoundCapture {
            from,
            to,
            captured,
            crowns,
            len: path.len(),
            path: full,
        });
    }
}

/// The depth-first search of the capture routes of one piece.
struct Route<'a, R: RuleSet, K: CaptureSink> {
    from: u64,
    /// Enemy pieces, including those already taken on this route.
    them: u64,
    /// Empty squares, including the square the capturing piece left.
    empty: u64,
    crowning: u64,
    /// Bit indices of the landing squares so far.
    path: [u8; MAX_PATH],
    sink: &'a mut K,
    /// Keys of this piece's routes so far, when some routes are to be merged: (end, pieces taken) when routes
    /// with the same effect are one move, or (end, order of capture) when every order counts.
    seen: Option<SmallVec<[(u64, u128); 8]>>,
    /// Whether `seen` holds orders of capture rather than sets of pieces taken.
    by_order: bool,
    rules: PhantomData<R>,
}

/// Appends a captured piece (its bit index, below 64) to a packed order of capture: six bits a piece, so 21
/// pieces fit.
#[inline(always)]
fn then_take(order: u128, over: u64) -> u128 {
    (order << 6) | u128::from(over.trailing_zeros())
}

impl<R: RuleSet, K: CaptureSink> Route<'_, R, K> {
    fn emit(&mut self, at: u64, len: usize, captured: u64, order: u128, crowns: bool) {
        if let Some(seen) = &mut self.seen {
            let key = (
                at,
                if self.by_order {
                    order
                } else {
                    u128::from(captured)
                },
            );
            if seen.contains(&key) {
                return;
            }
            seen.push(key);
        }
        self.sink
            .capture(self.from, at, captured, &self.path[..len], crowns);
    }

    /// Continues a man's capture from `at` (one bit) after `len` landings that took `captured`.
    fn man<S: Mover>(&mut self, at: u64, captured: u64, order: u128, len: usize) {
        let mut extended = false;
        let dirs = S::FORWARD
            .into_iter()
            .chain(S::BACKWARD.into_iter().filter(|_| R::MEN_CAPTURE_BACKWARDS));
        for dir in dirs {
            let over = step::<R>(at, dir) & self.them & !captured;
            let land = step::<R>(over, dir) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            self.path[len] = land.trailing_zeros() as u8;
            let taken = captured | over;
            let order = then_take(order, over);
            if land & self.crowning == 0 {
                self.man::<S>(land, taken, order, len + 1);
            } else {
                match R::CROWNING_IN_CAPTURE {
                    CrowningInCapture::EndsMove => self.emit(land, len + 1, taken, order, true),
                    CrowningInCapture::ContinuesAsKing => {
                        self.king(land, taken, order, len + 1, true)
                    }
                    CrowningInCapture::OnlyAtEnd => self.man::<S>(land, taken, order, len + 1),
                }
            }
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, order, at & self.crowning != 0);
        }
    }

    /// Continues a king's capture from `at` (one bit) after `len` landings that took `captured`. `crowned` is
    /// set when a man became this king during the move.
    fn king(&mut self, at: u64, captured: u64, order: u128, len: usize, crowned: bool) {
        let mut extended = false;
        for dir in Direction::ALL {
            let Some((over, landings)) = self.king_jump(at, dir, captured) else {
                continue;
            };
            extended = true;
            let taken = captured | over;
            let order = then_take(order, over);
            // A flying king that can go on capturing must stop where it can: if some landing square beyond the
            // piece allows another capture, only those squares are open to it.
            let mut open = landings;
            if R::FLYING_KINGS && landings.count_ones() > 1 {
                let going_on: u64 = BitIter(landings)
                    .map(|bit| 1u64 << bit)
                    .filter(|&land| self.king_can_take(land, taken))
                    .fold(0, |acc, land| acc | land);
                if going_on != 0 {
                    open = going_on;
                }
            }
            for bit in BitIter(open) {
                self.path[len] = bit as u8;
                self.king(1u64 << bit, taken, order, len + 1, crowned);
            }
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, order, crowned);
        }
    }

    /// The piece a king on `at` can take in `dir` (not one already taken) and the squares it may land on.
    #[inline(always)]
    fn king_jump(&self, at: u64, dir: Direction, captured: u64) -> Option<(u64, u64)> {
        let mut over = step::<R>(at, dir);
        if R::FLYING_KINGS {
            while over & self.empty != 0 {
                over = step::<R>(over, dir);
            }
        }
        let over = over & self.them & !captured;
        let mut land = step::<R>(over, dir) & self.empty;
        let mut landings = 0;
        while land != 0 {
            landings |= land;
            land = if R::FLYING_KINGS {
                step::<R>(land, dir) & self.empty
            } else {
                0
            };
        }
        (landings != 0).then_some((over, landings))
    }

    /// Whether a king on `at` can take another piece, having taken `captured`.
    fn king_can_take(&self, at: u64, captured: u64) -> bool {
        Direction::ALL
            .into_iter()
            .any(|dir| self.king_jump(at, dir, captured).is_some())
    }
}
