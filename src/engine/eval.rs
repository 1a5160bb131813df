//! The static evaluation of English draughts positions, in hundredths of a man.
//!
//! Each side is scored from its own point of view with the same function: White's pieces are turned half a
//! circle first, so that both sides' men run towards the high square indices and both back rows are squares
//! 1-4. That makes the evaluation symmetric by construction; a test checks it.

use crate::rules::position::compress;
use crate::rules::{Color, English, Position, RuleSet};

/// A man, the unit of every score.
pub const MAN: i32 = 100;
/// A king in the middle game; kings gain a little as the board empties.
pub const KING: i32 = 130;

const SQUARES: usize = 32;

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

/// Squares 1-4: the back row that keeps the other side's men from crowning. 1 and 3 (the bridge) matter most.
const BACK_ROW_WEIGHTS: [i32; 4] = [9, 5, 9, 3];
/// Squares 14, 15, 18, 19: the centre.
const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
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

/// The score of `us` against `them` (both in `us`'s frame), from `us`'s point of view, for one half of the
/// symmetric evaluation.
fn side_score(us: Side, them: Side, total_pieces: i32) -> i32 {
    let men = us.men.count_ones() as i32;
    let kings = us.kings.count_ones() as i32;
    // Kings are worth more as the board empties and they have room.
    let king_value = KING + (24 - total_pieces).max(0);
    let mut score = men * MAN + kings * king_value;

    // Back row: guards against the other side's men while it still has men to crown.
    let their_men = them.men.count_ones() as i32;
    if their_men > 0 {
        let guard: i32 = (0..4)
            .filter(|i| us.men & (1 << i) != 0)
            .map(|i| BACK_ROW_WEIGHTS[i])
            .sum();
        score += guard * their_men.min(6) / 6;
    }

    // Centre and advancement: the later the game, the more a man's progress towards the crown counts.
    score += 4 * (us.men & CENTRE).count_ones() as i32;
    let endgame = (24 - total_pieces).max(0);
    for i in bits(us.men) {
        let row = i as i32 / 4;
        score += row * endgame / 5;
        // A runaway: nothing of the other side can meet it on its way to the crown.
        let cone = CONES[i];
        if cone & (them.men | them.kings) == 0 && row >= 2 {
            let to_go = 7 - row;
            let bonus = 48 - 7 * to_go;
            score += if them.kings == 0 { bonus } else { bonus / 2 };
        }
    }

    // Kings: centralised, and in the ending, closing in when ahead or sitting in a double corner when behind.
    let material = men * MAN + kings * KING;
    let their_material = their_men * MAN + them.kings.count_ones() as i32 * KING;
    for k in bits(us.kings) {
        score += 3 * CENTRALITY[k];
        if material > their_material {
            let targets = them.men | them.kings;
            let nearest = bits(targets).map(|t| distance(k, t)).min().unwrap_or(0);
            score -= 2 * nearest;
        }
    }
    if material < their_material {
        let cornered =
            (us.kings & (DOUBLE_CORNER | DOUBLE_CORNER.reverse_bits())).count_ones() as i32;
        score += 6 * cornered;
    }

    // Trading down when ahead brings the win closer.
    if material > their_material {
        score += (material - their_material) * (24 - total_pieces).max(0) / 48;
    }

    score + 2 * us.mobility
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

/// The evaluation from Black's point of view (positive: Black is better).
pub fn evaluate_for_black(pos: &Position) -> i32 {
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
    side_score(black_side, turned(white_side), total)
        - side_score(white_side, turned(black_side), total)
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
    use crate::rules::{Piece, Square, parse_fen};

    /// The same position with the board turned and the colours swapped.
    fn mirror(pos: &Position) -> Position {
        let mut out: Position = Position::empty(pos.side_to_move().opponent());
        for (square, piece) in pos.pieces() {
            let turned = Square::from_index(31 - square.index());
            out.set_piece(turned, Some(Piece::new(piece.color.opponent(), piece.role)));
        }
        out
    }

    #[test]
    fn the_start_is_even() {
        let start: Position = Position::start();
        assert_eq!(evaluate_for_black(&start), 0);
    }

    #[test]
    fn material_dominates() {
        let up: Position = parse_fen("B:W21-31:B1-12").expect("valid");
        assert!(evaluate(&up) > 80, "{}", evaluate(&up));
        let king: Position = parse_fen("W:WK15:B20").expect("valid");
        assert!(evaluate(&king) > 0);
    }

    #[test]
    fn runaway_men_count() {
        let free: Position = parse_fen("B:W25:B24").expect("valid");
        let blocked: Position = parse_fen("B:W28:B24").expect("valid");
        assert!(evaluate(&free) > evaluate(&blocked));
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        let mut pos: Position = Position::start();
        for step in 0..120 {
            let m = mirror(&pos);
            assert_eq!(evaluate(&m), evaluate(&pos), "{pos:?}");
            assert_eq!(evaluate_for_black(&m), -evaluate_for_black(&pos), "{pos:?}");
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[(step * 5 + 3) % moves.len()]);
        }
    }
}
