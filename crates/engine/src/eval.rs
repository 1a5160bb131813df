//! The static evaluation of English draughts positions, in hundredths of a man.
//!
//! Each side is scored from its own point of view with the same function: White's pieces are turned half a
//! circle first, so that both sides' men run towards the high square indices and both back rows are squares
//! 1-4. That makes the evaluation symmetric by construction; a test checks it.
//!
//! The score is linear in its weights: every term is a whole-number count of something on the board (a
//! term of [`TERMS`]) times its weight, summed in 64ths of a hundredth of a man. [`evaluate`] sums them with the
//! weights compiled in ([`crate::EVAL_WEIGHTS`]); [`features`] returns the counts themselves, which is what tuning the
//! weights on game results needs (`crowned tune`).

use super::eval_weights::WEIGHTS;
use crowned_rules::position::compress;
use crowned_rules::{Color, English, Position, RuleSet};

/// A man, the unit of every score.
pub const MAN: i32 = 100;
/// A king in the middle game, as the weaker levels and the other variants count it.
pub const KING: i32 = 130;

/// The weights are in 64ths of the score's unit, so that small effects (a fraction of a hundredth per piece)
/// can be weighed in whole numbers.
pub const SCALE: i32 = 64;

const SQUARES: usize = 32;

/// The terms of the evaluation, by index into the weights. Counts are for one side in its own frame; the score
/// is Black's terms less White's.
pub mod terms {
    /// Men: fixed at one hundred hundredths (the unit), never tuned.
    pub const MEN: usize = 0;
    /// Kings.
    pub const KINGS: usize = 1;
    /// Kings times the pieces gone from the board (past 24 less the pieces left): kings gain as it empties.
    pub const KINGS_LATE: usize = 2;
    /// A man on each back-row square 1-4, times the other side's men (at most 6): guards against crowning.
    pub const BACK_ROW: usize = 3;
    /// The rows men have advanced, times the pieces gone from the board.
    pub const ADVANCE_LATE: usize = 7;
    /// Men that nothing can stop from crowning while the other side has no king.
    pub const RUNAWAY: usize = 8;
    /// Rows such men still have to go.
    pub const RUNAWAY_TO_GO: usize = 9;
    /// Men that nothing can stop but a king.
    pub const RUNAWAY_KINGS: usize = 10;
    /// Rows such men still have to go.
    pub const RUNAWAY_KINGS_TO_GO: usize = 11;
    /// Kings' distance from the edge (0 to 3 each).
    pub const KING_CENTRE: usize = 12;
    /// When ahead in material, each king's distance to the nearest piece of the other side.
    pub const KING_CHASE: usize = 13;
    /// When behind in material, kings in a double corner.
    pub const KING_CORNERED: usize = 14;
    /// When ahead, the material lead times the pieces gone, in eighths: trading down when ahead.
    pub const TRADE_DOWN: usize = 15;
    /// Simple moves available.
    pub const MOBILITY: usize = 16;
    /// Being the side to move.
    pub const TEMPO: usize = 17;
    /// A man on each square, in the side's own frame (index 0 is its own back row's first square).
    pub const MAN_SQUARE: usize = 18;
    /// How many terms there are.
    pub const COUNT: usize = MAN_SQUARE + 32;
}

/// The number of weights.
pub const TERMS: usize = terms::COUNT;

/// A short name for each term, for the tuner's report and the weights file.
pub fn term_name(term: usize) -> String {
    use terms::*;
    match term {
        MEN => "men".into(),
        KINGS => "kings".into(),
        KINGS_LATE => "kings late".into(),
        t if (BACK_ROW..BACK_ROW + 4).contains(&t) => format!("back row {}", t - BACK_ROW + 1),
        ADVANCE_LATE => "advance late".into(),
        RUNAWAY => "runaway".into(),
        RUNAWAY_TO_GO => "runaway to go".into(),
        RUNAWAY_KINGS => "runaway (kings)".into(),
        RUNAWAY_KINGS_TO_GO => "runaway (kings) to go".into(),
        KING_CENTRE => "king centre".into(),
        KING_CHASE => "king chase".into(),
        KING_CORNERED => "king cornered".into(),
        TRADE_DOWN => "trade down".into(),
        MOBILITY => "mobility".into(),
        TEMPO => "tempo".into(),
        t if (MAN_SQUARE..COUNT).contains(&t) => format!("man on {}", t - MAN_SQUARE + 1),
        t => format!("term {t}"),
    }
}

/// Where the terms go: summed with weights for play, or kept as counts for tuning.
trait Sink {
    fn add(&mut self, term: usize, count: i32);
}

/// The weighted sum, for play.
struct Weighted<'a> {
    weights: &'a [i32; TERMS],
    total: i32,
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total += self.weights[term] * count;
    }
}

/// The counts, for tuning.
struct Counted([i32; TERMS]);

impl Sink for Counted {
    fn add(&mut self, term: usize, count: i32) {
        self.0[term] += count;
    }
}

/// The same sink, with every count negated: the other side's terms.
struct Negated<'a, S: Sink>(&'a mut S);

impl<S: Sink> Sink for Negated<'_, S> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.0.add(term, -count);
    }
}

/// Row (0: the side's own back row) and column (0 = a-file, as seen by Black) of each square index.
const fn row_col(i: usize) -> (i32, i32) {
    let row = i / 4;
    let col = 2 * (i % 4) + if row.is_multiple_of(2) { 1 } else { 0 };
    (row as i32, col as i32)
}

/// For each square, the squares a man there could still reach or be met on: every square in a row ahead within
/// the widening diagonal cone.
const fn cones() -> [u32; SQUARES] {
    let mut cones = [0u32; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (r, c) = row_col(i);
        let mut j = 0;
        while j < SQUARES {
            let (rj, cj) = row_col(j);
            let ahead = rj - r;
            let across = if cj > c { cj - c } else { c - cj };
            if ahead > 0 && across <= ahead + 1 {
                cones[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    cones
}

static CONES: [u32; SQUARES] = cones();

/// Centralisation of each square for a king: 0 on the edge, up to 3 in the middle.
const fn centrality() -> [i32; SQUARES] {
    let mut out = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (r, c) = row_col(i);
        let dr = if r < 4 { r } else { 7 - r };
        let dc = if c < 4 { c } else { 7 - c };
        out[i] = if dr < dc { dr } else { dc };
        i += 1;
    }
    out
}

static CENTRALITY: [i32; SQUARES] = centrality();

/// The double corner (squares 1 and 5 from Black's side), where a lone king holds out longest.
const DOUBLE_CORNER: u32 = (1 << 0) | (1 << 4);

/// One side's pieces, turned so that its men move towards the high indices.
#[derive(Clone, Copy)]
struct Side {
    men: u32,
    kings: u32,
    /// Simple moves available to this side (from the real board).
    mobility: i32,
}

/// Chebyshev distance between two square indices: the moves a king needs.
fn distance(a: usize, b: usize) -> i32 {
    let (ra, ca) = row_col(a);
    let (rb, cb) = row_col(b);
    (ra - rb).abs().max((ca - cb).abs())
}

fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The terms of `us` against `them` (both in `us`'s frame).
#[inline(always)]
fn side_terms(us: Side, them: Side, total_pieces: i32, sink: &mut impl Sink) {
    use terms::*;
    let men = us.men.count_ones() as i32;
    let kings = us.kings.count_ones() as i32;
    let gone = (24 - total_pieces).max(0);
    sink.add(MEN, men);
    sink.add(KINGS, kings);
    sink.add(KINGS_LATE, kings * gone);

    // Back row: guards against the other side's men while it still has men to crown.
    let their_men = them.men.count_ones() as i32;
    if their_men > 0 {
        let guards = their_men.min(6);
        for i in bits(us.men & 0xf) {
            sink.add(BACK_ROW + i, guards);
        }
    }

    let mut advance = 0;
    let (mut runaways, mut to_go) = (0, 0);
    for i in bits(us.men) {
        let row = i as i32 / 4;
        advance += row;
        sink.add(MAN_SQUARE + i, 1);
        // A runaway: nothing of the other side can meet it on its way to the crown.
        if CONES[i] & (them.men | them.kings) == 0 && row >= 2 {
            runaways += 1;
            to_go += 7 - row;
        }
    }
    sink.add(ADVANCE_LATE, advance * gone);
    if them.kings == 0 {
        sink.add(RUNAWAY, runaways);
        sink.add(RUNAWAY_TO_GO, to_go);
    } else {
        sink.add(RUNAWAY_KINGS, runaways);
        sink.add(RUNAWAY_KINGS_TO_GO, to_go);
    }

    // Kings: centralised, and in the ending, closing in when ahead or sitting in a double corner when behind.
    let material = men * MAN + kings * KING;
    let their_material = their_men * MAN + them.kings.count_ones() as i32 * KING;
    let mut centre = 0;
    let mut chase = 0;
    for k in bits(us.kings) {
        centre += CENTRALITY[k];
        if material > their_material {
            let targets = them.men | them.kings;
            chase += bits(targets).map(|t| distance(k, t)).min().unwrap_or(0);
        }
    }
    sink.add(KING_CENTRE, centre);
    sink.add(KING_CHASE, chase);
    if material < their_material {
        let cornered =
            (us.kings & (DOUBLE_CORNER | DOUBLE_CORNER.reverse_bits())).count_ones() as i32;
        sink.add(KING_CORNERED, cornered);
    }
    // Trading down when ahead brings the win closer.
    if material > their_material {
        sink.add(TRADE_DOWN, (material - their_material) * gone / 8);
    }
    sink.add(MOBILITY, us.mobility);
}

/// Simple moves available to `color` (each man step forward, each king step anywhere), counted on the board.
fn mobility(pos: &Position, color: Color) -> i32 {
    let g = English::GEOMETRY;
    let own = pos.pieces[color.index()];
    let empty = g.board_mask() as u64 & !(pos.pieces[0] | pos.pieces[1]);
    let kings = own & pos.kings;
    let (forward, backward): (&[i32; 2], &[i32; 2]) = match color {
        Color::Black => (&[4, 5], &[-4, -5]),
        Color::White => (&[-4, -5], &[4, 5]),
    };
    let step = |bits: u64, by: i32| if by > 0 { bits << by } else { bits >> -by };
    let mut n = 0;
    for &d in forward {
        n += (step(own, d) & empty).count_ones();
    }
    for &d in backward {
        n += (step(kings, d) & empty).count_ones();
    }
    n as i32
}

/// Bits of the board layout as square indices (bit i: square i + 1).
fn squares(bits: u64) -> u32 {
    compress(English::GEOMETRY, bits) as u32
}

/// Every term for Black less every term for White.
#[inline(always)]
fn all_terms(pos: &Position, sink: &mut impl Sink) {
    let black = pos.pieces[Color::Black.index()];
    let white = pos.pieces[Color::White.index()];
    let black_side = Side {
        men: squares(black & !pos.kings),
        kings: squares(black & pos.kings),
        mobility: mobility(pos, Color::Black),
    };
    // Half a turn of the board: square index i becomes 31 - i.
    let white_side = Side {
        men: squares(white & !pos.kings).reverse_bits(),
        kings: squares(white & pos.kings).reverse_bits(),
        mobility: mobility(pos, Color::White),
    };
    let total = (black | white).count_ones() as i32;
    // Each side is scored against the other seen in its own frame.
    let turned = |s: Side| Side {
        men: s.men.reverse_bits(),
        kings: s.kings.reverse_bits(),
        ..s
    };
    side_terms(black_side, turned(white_side), total, sink);
    side_terms(white_side, turned(black_side), total, &mut Negated(sink));
    let tempo = match pos.side_to_move() {
        Color::Black => 1,
        Color::White => -1,
    };
    sink.add(terms::TEMPO, tempo);
}

/// The evaluation from Black's point of view (positive: Black is better).
pub fn evaluate_for_black(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation from Black's point of view with other weights (in 64ths, [`SCALE`]).
pub fn evaluate_with(pos: &Position, weights: &[i32; TERMS]) -> i32 {
    let mut sum = Weighted { weights, total: 0 };
    all_terms(pos, &mut sum);
    // Truncating towards zero keeps the score antisymmetric: a mirrored position scores exactly the negative.
    sum.total / SCALE
}

/// The terms' counts, Black's less White's: `evaluate_with(pos, w)` is the sum of `w[i] * features(pos)[i]`
/// divided by [`SCALE`].
pub fn features(pos: &Position) -> [i32; TERMS] {
    let mut counted = Counted([0; TERMS]);
    all_terms(pos, &mut counted);
    counted.0
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let score = evaluate_for_black(pos);
    match pos.side_to_move() {
        Color::Black => score,
        Color::White => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{Piece, Square, parse_fen};

    /// The same position with the board turned and the colours swapped.
    fn mirror(pos: &Position) -> Position {
        let mut out: Position = Position::empty(pos.side_to_move().opponent());
        for (square, piece) in pos.pieces() {
            let turned = Square::from_index(31 - square.index());
            out.set_piece(turned, Some(Piece::new(piece.color.opponent(), piece.role)));
        }
        out
    }

    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut pos: Position = Position::start();
        for step in 0..120 {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[(step * 5 + 3) % moves.len()]);
        }
        out
    }

    #[test]
    fn the_start_is_nearly_even() {
        let start: Position = Position::start();
        // Only the tempo of the side to move separates the sides.
        let tempo = WEIGHTS[terms::TEMPO] / SCALE;
        assert_eq!(evaluate_for_black(&start), tempo);
    }

    #[test]
    fn material_dominates() {
        let up: Position = parse_fen("B:W21-31:B1-12").expect("valid");
        assert!(evaluate(&up) > 80, "{}", evaluate(&up));
        // Two kings against a man: a piece up and the stronger pieces. (A lone king against a lone man is
        // close to level for the tuned weights: such endings were mostly drawn in the self-play they came from.)
        let kings: Position = parse_fen("W:WK15,K22:B20").expect("valid");
        assert!(evaluate(&kings) > 80, "{}", evaluate(&kings));
    }

    #[test]
    fn runaway_men_count() {
        let free: Position = parse_fen("B:W25:B24").expect("valid");
        let blocked: Position = parse_fen("B:W28:B24").expect("valid");
        assert!(evaluate(&free) > evaluate(&blocked));
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        for pos in positions() {
            let m = mirror(&pos);
            assert_eq!(evaluate(&m), evaluate(&pos), "{pos:?}");
            assert_eq!(evaluate_for_black(&m), -evaluate_for_black(&pos), "{pos:?}");
            let negated: Vec<i32> = features(&pos).iter().map(|c| -c).collect();
            assert_eq!(features(&m).to_vec(), negated);
        }
    }

    #[test]
    fn the_score_is_the_weighted_sum_of_the_features() {
        for pos in positions() {
            let counts = features(&pos);
            let sum: i32 = counts.iter().zip(WEIGHTS.iter()).map(|(c, w)| c * w).sum();
            assert_eq!(evaluate_for_black(&pos), sum / SCALE);
            // Other weights too: one term alone.
            let mut only_kings = [0; TERMS];
            only_kings[terms::KINGS] = SCALE;
            assert_eq!(evaluate_with(&pos, &only_kings), counts[terms::KINGS]);
        }
    }

    #[test]
    fn every_term_has_a_name() {
        let names: std::collections::HashSet<String> = (0..TERMS).map(term_name).collect();
        assert_eq!(names.len(), TERMS);
        assert!(names.iter().all(|n| !n.starts_with("term ")));
    }
}
