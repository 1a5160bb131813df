//! Capture generation: every complete capture route of the side to move.
//!
//! Captured pieces stay on the board until the move ends: they cannot be taken twice and a flying king cannot
//! pass over them (except in Thai draughts, where each leaves the board as it is taken). The square the capturing
//! piece left is empty, so a king may come back through it.

use std::marker::PhantomData;

use smallvec::SmallVec;

use super::super::bits::{BitIter, Bits};
use super::super::geometry::{Direction, Line};
use super::super::moves::MAX_PATH;
use super::super::ruleset::{CrowningInCapture, Precedence, RuleSet};
use super::{CaptureSink, Mover, Sides, crowning_mask, jumpers_in, line_step, step, step_back};

/// Whether men capture forwards only, stop when crowned, take any piece and may choose freely among their
/// captures, as in English draughts. Then a man's captures can be found for all men at once, and two routes of
/// one man never take the same pieces. (Under [`Precedence::KingsFirst`] the men capture only when no king can,
/// and then freely.)
pub(crate) const fn forward_men<R: RuleSet>() -> bool {
    !R::MEN_CAPTURE_BACKWARDS
        && matches!(R::CROWNING_IN_CAPTURE, CrowningInCapture::EndsMove)
        && matches!(R::PRECEDENCE, Precedence::Free | Precedence::KingsFirst)
        && R::MEN_CAPTURE_KINGS
}

/// Passes every capture route of the pieces in `jumpers` to `sink` (where the rules rank captures, only the
/// routes ranked first). Without `DUP`, a route with the same effect as an earlier route of the same piece is
/// left out.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn generate_captures<R: RuleSet, S: Mover, K: CaptureSink<R::Bits>, const DUP: bool>(
    s: &Sides<R::Bits>,
    jumpers: R::Bits,
    sink: &mut K,
) {
    if matches!(R::PRECEDENCE, Precedence::Free | Precedence::KingsFirst) {
        search::<R, S, K, DUP>(s, jumpers, sink);
    } else {
        generate_ranked::<R, S, K, DUP>(s, jumpers, sink);
    }
}

/// The captures of `jumpers` that rank first. Kept out of line: the routes it holds until the best rank is
/// known would otherwise take room on the stack of every caller.
#[inline(never)]
fn generate_ranked<R: RuleSet, S: Mover, K: CaptureSink<R::Bits>, const DUP: bool>(
    s: &Sides<R::Bits>,
    jumpers: R::Bits,
    sink: &mut K,
) {
    let mut found = Found::<R::Bits>::default();
    search::<R, S, _, DUP>(s, jumpers, &mut found);
    let best = found.0.iter().map(|c| rank::<R>(c, s.kings)).max();
    let mut kept: SmallVec<[&FoundCapture<R::Bits>; 16]> = SmallVec::new();
    for c in found
        .0
        .iter()
        .filter(|c| Some(rank::<R>(c, s.kings)) == best)
    {
        // Without duplicates, the first of the best routes with one effect stands for them all.
        let same = |k: &&FoundCapture<R::Bits>| {
            k.from == c.from && k.to == c.to && k.captured == c.captured
        };
        if !DUP && kept.iter().any(same) {
            continue;
        }
        kept.push(c);
        sink.capture(c.from, c.to, c.captured, &c.path[..c.len], c.crowns);
    }
}

/// How a capture ranks under the variant's precedence; the highest rank must be chosen. In order: pieces
/// taken, whether a king takes them, kings taken, and how early the kings are taken (the first piece taken
/// is the highest bit).
#[cfg_attr(not(debug_assertions), inline(always))]
fn rank<R: RuleSet>(c: &FoundCapture<R::Bits>, kings: R::Bits) -> (u32, bool, u32, u64) {
    let count = c.captured.count_ones();
    match R::PRECEDENCE {
        Precedence::Free | Precedence::KingsFirst | Precedence::Majority => (count, false, 0, 0),
        Precedence::MajorityThenKings => (count, false, (c.captured & kings).count_ones(), 0),
        Precedence::Value => {
            // lidraughts counts a man 100 and a king 199: a king is worth more than a man and less than two,
            // as the Frisian rules say; then, on equal value, the capture by a king goes first.
            let kings_taken = (c.captured & kings).count_ones();
            let value = 100 * (count - kings_taken) + 199 * kings_taken;
            (value, !(c.from & kings).is_empty(), 0, 0)
        }
        Precedence::Italian => {
            let with_king = !(c.from & kings).is_empty();
            let kings_taken = (c.captured & kings).count_ones();
            // Italian kings and men move one square, so each piece taken lies halfway between two landings.
            let mut at = c.from.trailing_zeros();
            let mut early = 0u64;
            for (i, &land) in c.path[..c.len].iter().enumerate().take(64) {
                let over = (at + u32::from(land)) / 2;
                if !(kings & R::Bits::bit(over)).is_empty() {
                    early |= 1 << (63 - i);
                }
                at = u32::from(land);
            }
            (count, with_king, kings_taken, early)
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn search<R: RuleSet, S: Mover, K: CaptureSink<R::Bits>, const DUP: bool>(
    s: &Sides<R::Bits>,
    jumpers: R::Bits,
    sink: &mut K,
) {
    let mut searched = jumpers;
    if forward_men::<R>() {
        let men = jumpers & !s.kings;
        searched = (jumpers & s.kings) | single_jumps::<R, S, K>(s, men, sink);
    }
    for bit in BitIter(searched) {
        let at = R::Bits::bit(bit);
        let is_king = !(s.kings & at).is_empty();
        // Forward-only men cannot reach one end by two routes taking the same pieces: the piece taken on each
        // pair of rows fixes the route. Only kings (and men that turn back or become kings) need the check.
        let may_repeat = is_king || !forward_men::<R>();
        // Keeping duplicates means one route per order of capture, as the published perft tables count them. A
        // flying king may reach the same order through different landing squares; those routes are one.
        let merge = if DUP { R::FLYING_KINGS } else { may_repeat };
        let mut route = Route::<R, K> {
            from: at,
            them: s.them,
            man_targets: s.men_targets::<R>(),
            empty: s.empty | at,
            crowning: crowning_mask::<R, S>(),
            path: [0; MAX_PATH],
            sink,
            seen: merge.then(SmallVec::new),
            // Italian precedence ranks routes by the order they meet kings, so two routes taking the same pieces
            // in another order may rank differently: they are told apart by order until ranked.
            by_order: DUP || matches!(R::PRECEDENCE, Precedence::Italian),
            rules: PhantomData,
        };
        let none = R::Bits::ZERO;
        let order = <R::Bits as Bits>::Order::default();
        if is_king {
            route.king(at, none, order, 0, false);
        } else {
            route.man::<S>(at, none, order, 0);
        }
    }
}

/// Passes on the captures of forward-capturing `men` that are single jumps, for all men at once, and returns
/// the men that have a landing square from which they can jump again (to be searched one by one).
#[cfg_attr(not(debug_assertions), inline(always))]
fn single_jumps<R: RuleSet, S: Mover, K: CaptureSink<R::Bits>>(
    s: &Sides<R::Bits>,
    men: R::Bits,
    sink: &mut K,
) -> R::Bits {
    let crowning = crowning_mask::<R, S>();
    let mut lands = [R::Bits::ZERO; 2];
    let mut again_from = R::Bits::ZERO;
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
            let to = R::Bits::bit(bit);
            let over = step_back::<R>(to, dir);
            let from = step_back::<R>(over, dir);
            sink.capture(from, to, over, &[bit as u8], !(to & crowning).is_empty());
        }
    }
    again_from
}

/// One capture route found where captures are ranked, kept until the best rank is known.
struct FoundCapture<B> {
    from: B,
    to: B,
    captured: B,
    crowns: bool,
    len: usize,
    path: [u8; MAX_PATH],
}

struct Found<B>(SmallVec<[FoundCapture<B>; 16]>);

impl<B> Default for Found<B> {
    fn default() -> Self {
        Found(SmallVec::new())
    }
}

impl<B: Bits> CaptureSink<B> for Found<B> {
    fn capture(&mut self, from: B, to: B, captured: B, path: &[u8], crowns: bool) {
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
struct Route<'a, R: RuleSet, K: CaptureSink<R::Bits>> {
    from: R::Bits,
    /// Enemy pieces, including those already taken on this route.
    them: R::Bits,
    /// The enemy pieces a man may take.
    man_targets: R::Bits,
    /// Empty squares, including the square the capturing piece left.
    empty: R::Bits,
    crowning: R::Bits,
    /// Bit indices of the landing squares so far.
    path: [u8; MAX_PATH],
    sink: &'a mut K,
    /// Keys of this piece's routes so far, when some routes are to be merged: (end, pieces taken) when routes
    /// with the same effect are one move, or (end, order of capture) when every order counts.
    seen: Option<SmallVec<[RouteKey<R::Bits>; 8]>>,
    /// Whether `seen` holds orders of capture rather than sets of pieces taken.
    by_order: bool,
    rules: PhantomData<R>,
}

/// What makes two routes of one piece the same move: where it ends, and either the pieces taken or the order
/// they were taken in.
type RouteKey<B> = (B, B, <B as Bits>::Order);

/// Appends a captured piece (one bit) as the `taken`-th of a packed order of capture.
#[cfg_attr(not(debug_assertions), inline(always))]
fn then_take<B: Bits>(order: B::Order, over: B, taken: usize) -> B::Order {
    B::then_take(order, over.trailing_zeros(), taken)
}

type Order<R> = <<R as RuleSet>::Bits as Bits>::Order;

impl<R: RuleSet, K: CaptureSink<R::Bits>> Route<'_, R, K> {
    fn emit(&mut self, at: R::Bits, len: usize, captured: R::Bits, order: Order<R>, crowns: bool) {
        if let Some(seen) = &mut self.seen {
            let key = if self.by_order {
                (at, R::Bits::ZERO, order)
            } else {
                (at, captured, Order::<R>::default())
            };
            if seen.contains(&key) {
                return;
            }
            seen.push(key);
        }
        self.sink
            .capture(self.from, at, captured, &self.path[..len], crowns);
    }

    /// Continues a man's capture from `at` (one bit) after `len` landings that took `captured`.
    fn man<S: Mover>(&mut self, at: R::Bits, captured: R::Bits, order: Order<R>, len: usize) {
        if len >= MAX_PATH {
            // More pieces taken than a side can have: only a position no game reaches gets here.
            self.emit(at, len, captured, order, false);
            return;
        }
        let mut extended = false;
        let dirs = S::FORWARD
            .into_iter()
            .chain(S::BACKWARD.into_iter().filter(|_| R::MEN_CAPTURE_BACKWARDS));
        for dir in dirs {
            let over = step::<R>(at, dir) & self.man_targets & !captured;
            let land = step::<R>(over, dir) & self.empty;
            extended |= self.man_jump::<S>(over, land, captured, order, len);
        }
        if R::ORTHOGONAL_CAPTURES {
            for line in Line::ALL {
                let over = line_step::<R>(at, line) & self.man_targets & !captured;
                let land = line_step::<R>(over, line) & self.empty;
                extended |= self.man_jump::<S>(over, land, captured, order, len);
            }
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, order, !(at & self.crowning).is_empty());
        }
    }

    /// A man's jump over `over` to `land` (one bit each, or `land` empty when there is no such jump), and the
    /// rest of its capture from there. Whether there was a jump.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn man_jump<S: Mover>(
        &mut self,
        over: R::Bits,
        land: R::Bits,
        captured: R::Bits,
        order: Order<R>,
        len: usize,
    ) -> bool {
        if land.is_empty() {
            return false;
        }
        self.path[len] = land.trailing_zeros() as u8;
        let taken = captured | over;
        let order = then_take(order, over, len);
        if (land & self.crowning).is_empty() {
            self.man::<S>(land, taken, order, len + 1);
        } else {
            match R::CROWNING_IN_CAPTURE {
                CrowningInCapture::EndsMove => self.emit(land, len + 1, taken, order, true),
                CrowningInCapture::ContinuesAsKing => self.king(land, taken, order, len + 1, true),
                CrowningInCapture::OnlyAtEnd => self.man::<S>(land, taken, order, len + 1),
            }
        }
        true
    }

    /// Continues a king's capture from `at` (one bit) after `len` landings that took `captured`. `crowned` is
    /// set when a man became this king during the move.
    fn king(&mut self, at: R::Bits, captured: R::Bits, order: Order<R>, len: usize, crowned: bool) {
        if len >= MAX_PATH {
            // More pieces taken than a side can have: only a position no game reaches gets here.
            self.emit(at, len, captured, order, crowned);
            return;
        }
        let mut extended = false;
        for dir in Direction::ALL {
            if let Some((over, landings)) = self.king_jump(at, captured, |b| step::<R>(b, dir)) {
                extended = true;
                self.king_land(over, landings, captured, order, len, crowned);
            }
        }
        if R::ORTHOGONAL_CAPTURES {
            for line in Line::ALL {
                let next = |b| line_step::<R>(b, line);
                if let Some((over, landings)) = self.king_jump(at, captured, next) {
                    extended = true;
                    self.king_land(over, landings, captured, order, len, crowned);
                }
            }
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, order, crowned);
        }
    }

    /// Goes on with a king's capture that takes `over` and may land on `landings`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn king_land(
        &mut self,
        over: R::Bits,
        landings: R::Bits,
        captured: R::Bits,
        order: Order<R>,
        len: usize,
        crowned: bool,
    ) {
        let taken = captured | over;
        let order = then_take(order, over, len);
        // A flying king that can go on capturing must stop where it can: if some landing square beyond the
        // piece allows another capture, only those squares are open to it.
        let mut open = landings;
        if R::FLYING_KINGS && landings.count_ones() > 1 {
            let going_on = BitIter(landings)
                .map(R::Bits::bit)
                .filter(|&land| self.king_can_take(land, taken))
                .fold(R::Bits::ZERO, |acc, land| acc | land);
            if !going_on.is_empty() {
                open = going_on;
            }
        }
        for bit in BitIter(open) {
            self.path[len] = bit as u8;
            self.king(R::Bits::bit(bit), taken, order, len + 1, crowned);
        }
    }

    /// The piece a king on `at` can take going the way `next` steps (not one already taken) and the squares it
    /// may land on.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn king_jump(
        &self,
        at: R::Bits,
        captured: R::Bits,
        next: impl Fn(R::Bits) -> R::Bits,
    ) -> Option<(R::Bits, R::Bits)> {
        // Where pieces leave the board as they are taken, their squares are open again.
        let empty = if R::REMOVED_AT_ONCE {
            self.empty | captured
        } else {
            self.empty
        };
        let mut over = next(at);
        if R::FLYING_KINGS {
            while !(over & empty).is_empty() {
                over = next(over);
            }
        }
        let over = over & self.them & !captured;
        let mut land = next(over) & empty;
        let mut landings = R::Bits::ZERO;
        while !land.is_empty() {
            landings |= land;
            land = if R::FLYING_KINGS && !R::KING_LANDS_BEHIND {
                next(land) & empty
            } else {
                R::Bits::ZERO
            };
        }
        (!landings.is_empty()).then_some((over, landings))
    }

    /// Whether a king on `at` can take another piece, having taken `captured`.
    fn king_can_take(&self, at: R::Bits, captured: R::Bits) -> bool {
        Direction::ALL.into_iter().any(|dir| {
            self.king_jump(at, captured, |b| step::<R>(b, dir))
                .is_some()
        }) || (R::ORTHOGONAL_CAPTURES
            && Line::ALL.into_iter().any(|line| {
                self.king_jump(at, captured, |b| line_step::<R>(b, line))
                    .is_some()
            }))
    }
}
