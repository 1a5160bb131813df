//! The evaluation of every rule set: English draughts keeps its own hand-tuned function ([`super::eval`]), and
//! the other rule sets share one that is told what differs between them: the board, and what a king is worth.
//!
//! The generic evaluation works on the layout bits directly, with masks computed at compile time for each
//! board, so it costs a few population counts per row and needs no square-by-square loop. Like the English
//! one, it scores each side from its own point of view with the same terms, so it is symmetric by
//! construction (a test checks it on every board).

use super::eval::MAN;
use super::races::{Races, race_for_black};
use crowned_rules::movegen::{board_mask, step};
use crowned_rules::{Bits, Color, Direction, Geometry, Position, RuleSet};

/// The most rows a board has (14x14).
const MAX_ROWS: usize = 14;

/// Masks of one board, in the layout bits, computed once per rule set at compile time.
struct Masks {
    /// Each row, 0 being the top of the diagram (Black's back row).
    rows: [u128; MAX_ROWS],
    /// The middle half of the board in both directions: the squares that control play.
    centre: u128,
    /// The long diagonal from the bottom-left corner to the top-right one (the "main road" of Russian and
    /// pool players): a flying king there cuts the board in two.
    main_diagonal: u128,
    /// The two diagonals next to the double corners (the "double road"), the other lines a flying king holds.
    double_diagonals: u128,
}

const fn masks(g: Geometry) -> Masks {
    let (w, h) = (g.width as u32, g.height as u32);
    let mut m = Masks {
        rows: [0; MAX_ROWS],
        centre: 0,
        main_diagonal: 0,
        double_diagonals: 0,
    };
    let mut row = 0;
    while row < h {
        m.rows[row as usize] = g.row_mask(row);
        let mut col = 0;
        while col < w {
            if let Some(square) = g.at(row, col) {
                let bit = 1u128 << g.bit(square);
                if row >= h / 4 && row < h - h / 4 && col >= w / 4 && col < w - w / 4 {
                    m.centre |= bit;
                }
                // Dark squares have row + col odd, so the long diagonal of dark squares is row + col = w - 1.
                if row + col == w - 1 {
                    m.main_diagonal |= bit;
                }
                if row + col + 2 == w - 1 || row + col == w + 1 {
                    m.double_diagonals |= bit;
                }
            }
            col += 1;
        }
        row += 1;
    }
    m
}

/// What a king is worth, in hundredths of a man, at the start of a game.
///
/// * Short kings (English rules on the larger boards): 130, as on 8x8, plus 5 for every two rows the board
///   grows, since a king has more room to use and takes longer to be trapped.
/// * Italian: 150. Kings are short, but men may not take them, so a king can only be lost to another king.
/// * Thai: 200. Kings fly, but must land right behind the piece they take, which removes most of the long
///   multi-captures that make a flying king so strong; with two rows of men each, every piece counts more too.
/// * Flying kings on 8x8 (Russian, Brazilian, pool, Spanish, Czech): 250. Players value a king at two and a
///   half to three men: it attacks along whole diagonals and a single one often holds off three men.
/// * Flying kings on 10x10 (international) and 12x12 (Canadian): 300 and 350, since the longer diagonals give a
///   king more reach, and a man has a longer way to go to become one.
pub(crate) const fn king_value<R: RuleSet>() -> i32 {
    let size = R::GEOMETRY.width as i32;
    if !R::FLYING_KINGS {
        if R::MEN_CAPTURE_KINGS {
            130 + 5 * (size - 8) / 2
        } else {
            150
        }
    } else if R::KING_LANDS_BEHIND {
        200
    } else {
        250 + 25 * (size - 8)
    }
}

/// The pieces each side has at the start.
const fn start_pieces<R: RuleSet>() -> i32 {
    (2 * R::START_ROWS * R::GEOMETRY.per_row()) as i32
}

/// One side's pieces in layout bits, and the simple moves it has.
#[derive(Clone, Copy)]
struct Side<B> {
    color: Color,
    men: B,
    kings: B,
    mobility: i32,
}

/// Rows a man of `color` on `row` has come from its own back row.
const fn progress(color: Color, row: usize, height: usize) -> usize {
    match color {
        Color::Black => row,
        Color::White => height - 1 - row,
    }
}

/// The score of `us` against `them`, from `us`'s point of view.
fn side_score<R: RuleSet>(us: Side<R::Bits>, them: Side<R::Bits>, total: i32) -> i32 {
    let m = const { masks(R::GEOMETRY) };
    let height = R::GEOMETRY.height as usize;
    let start = const { start_pieces::<R>() };
    // 0 at the start, growing to `start` as the board empties: how far into the ending the game is.
    let gone = (start - total).max(0);
    let bits = |b: u128| R::Bits::from_u128(b);

    let men = us.men.count_ones() as i32;
    let kings = us.kings.count_ones() as i32;
    let their_men = them.men.count_ones() as i32;
    // Kings gain a little as the board empties and they have room: a tenth of a man for every five pieces gone.
    let king = const { king_value::<R>() } + 2 * gone / 5;
    let material = men * MAN + kings * king;
    let their_material = their_men * MAN + them.kings.count_ones() as i32 * king;
    let mut score = material;

    // Advancement, weighted by the ending: a man's progress matters little while the board is full and
    // decides the game once it is empty. On any board a man one row from the crown with half the pieces gone
    // earns about a fifth of a man; the weight is per fraction of the board, so larger boards are not favoured.
    let last = height - 1;
    for row in 0..height {
        let on_row = (us.men & bits(m.rows[row])).count_ones() as i32;
        if on_row == 0 {
            continue;
        }
        let p = progress(us.color, row, height);
        if p == 0 {
            // Back row: guards the crowning squares while the other side still has men to crown. Where kings
            // fly a new king is worth more, so the guard is worth more too. At most two guards count: the
            // rest are men that have not developed.
            if their_men > 0 {
                let guard = if R::FLYING_KINGS { 8 } else { 6 };
                score += guard * on_row.min(2) * their_men.min(6) / 6;
            }
        } else {
            score += on_row * (p as i32) * 40 * gone / (start * last as i32);
            if p == last - 1 {
                // One step from the crown: worth a tenth of what crowning gains.
                score += on_row * (king - MAN) / 10;
            }
        }
    }

    // The centre: men there support each other and restrict the other side.
    score += 3 * (us.men & bits(m.centre)).count_ones() as i32;

    // Flying kings on the long diagonals cut the board and keep the other side's men from crowning.
    if R::FLYING_KINGS && !us.kings.is_empty() {
        score += 12 * (us.kings & bits(m.main_diagonal)).count_ones() as i32;
        score += 5 * (us.kings & bits(m.double_diagonals)).count_ones() as i32;
    } else {
        score += 3 * (us.kings & bits(m.centre)).count_ones() as i32;
    }

    // Trading down when ahead brings the win closer, more so as the board empties.
    if material > their_material {
        score += (material - their_material) * gone / (2 * start);
    }

    score + 2 * us.mobility
}

/// Simple steps available to `color`: each man one step forward, each king one step anywhere (a flying king's
/// longer moves are left out: the count is a measure of freedom, not a move list).
fn mobility<R: RuleSet>(pos: &Position<R>, color: Color) -> i32 {
    let own = pos.pieces[color.index()];
    let empty = board_mask::<R>() & !(pos.pieces[0] | pos.pieces[1]);
    let kings = own & pos.kings;
    let (forward, backward) = match color {
        Color::Black => (
            [Direction::DownLeft, Direction::DownRight],
            [Direction::UpLeft, Direction::UpRight],
        ),
        Color::White => (
            [Direction::UpLeft, Direction::UpRight],
            [Direction::DownLeft, Direction::DownRight],
        ),
    };
    let mut n = 0;
    for d in forward {
        n += (step::<R>(own, d) & empty).count_ones();
    }
    for d in backward {
        n += (step::<R>(kings, d) & empty).count_ones();
    }
    n as i32
}

/// The generic evaluation from Black's point of view (positive: Black is better), races of men counted as
/// `races` says (the rule set's [`EngineRules::RACES`](super::EngineRules::RACES)).
#[inline]
pub(super) fn generic_for_black<R: RuleSet>(pos: &Position<R>, races: Races) -> i32 {
    let side = |color: Color| {
        let own = pos.pieces[color.index()];
        Side {
            color,
            men: own & !pos.kings,
            kings: own & pos.kings,
            mobility: mobility(pos, color),
        }
    };
    let (black, white) = (side(Color::Black), side(Color::White));
    let total = (pos.pieces[0] | pos.pieces[1]).count_ones() as i32;
    let score = side_score::<R>(black, white, total) - side_score::<R>(white, black, total);
    if races == Races::Ignored {
        return score;
    }
    score + race_for_black(pos, races)
}

/// The generic evaluation from the side to move's point of view.
#[inline]
pub(super) fn generic<R: RuleSet>(pos: &Position<R>, races: Races) -> i32 {
    let score = generic_for_black(pos, races);
    match pos.side_to_move() {
        Color::Black => score,
        Color::White => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_rules::{EngineRules, evaluate_rules, evaluate_rules_for_black};
    use crate::eval;
    use crowned_rules::{
        Brazilian, Breakthrough, Canadian, Czech, EnglishOn, Frisian, Frysk, International,
        Italian, Piece, Pool, Role, Russian, Spanish, Square, Thai,
    };

    /// The same position with the board turned half a circle and the colours swapped.
    fn mirror<R: RuleSet>(pos: &Position<R>) -> Position<R> {
        let last = R::GEOMETRY.squares() - 1;
        let mut out = Position::<R>::empty(pos.side_to_move().opponent());
        for (square, piece) in pos.pieces() {
            let turned = Square::from_index(last - square.index());
            out.set_piece(turned, Some(Piece::new(piece.color.opponent(), piece.role)));
        }
        out
    }

    fn symmetric_along_a_game<R: EngineRules>() {
        let start = Position::<R>::start();
        assert_eq!(evaluate_rules_for_black(&start), 0, "{}", R::NAME);
        let mut pos = start;
        for step in 0..150 {
            let m = mirror(&pos);
            assert_eq!(
                evaluate_rules(&m),
                evaluate_rules(&pos),
                "{}: {pos:?}",
                R::NAME
            );
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[(step * 5 + 3) % moves.len()]);
        }
    }

    #[test]
    fn every_board_scores_mirrored_positions_alike() {
        symmetric_along_a_game::<International>();
        symmetric_along_a_game::<Russian>();
        symmetric_along_a_game::<Brazilian>();
        symmetric_along_a_game::<Pool>();
        symmetric_along_a_game::<Italian>();
        symmetric_along_a_game::<Spanish>();
        symmetric_along_a_game::<Czech>();
        symmetric_along_a_game::<Thai>();
        symmetric_along_a_game::<Canadian>();
        symmetric_along_a_game::<Breakthrough>();
        symmetric_along_a_game::<Frisian>();
        symmetric_along_a_game::<Frysk>();
        symmetric_along_a_game::<EnglishOn<10>>();
        symmetric_along_a_game::<EnglishOn<12>>();
        symmetric_along_a_game::<EnglishOn<14>>();
    }

    #[test]
    fn english_keeps_its_own_evaluation() {
        let mut pos: Position = Position::start();
        for step in 0..60 {
            assert_eq!(evaluate_rules(&pos), eval::evaluate(&pos));
            assert_eq!(
                evaluate_rules_for_black(&pos),
                eval::evaluate_for_black(&pos)
            );
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[step * 3 % moves.len()]);
        }
    }

    #[test]
    fn flying_kings_are_worth_more_than_short_ones() {
        assert_eq!(king_value::<EnglishOn<10>>(), 135);
        assert_eq!(king_value::<Italian>(), 150);
        assert_eq!(king_value::<Thai>(), 200);
        assert_eq!(king_value::<Russian>(), 250);
        assert_eq!(king_value::<International>(), 300);
        assert_eq!(king_value::<Canadian>(), 350);
        // A king against two men: behind where kings are short, ahead where they fly.
        let with = |fen: &str| -> (i32, i32) {
            let short: Position<EnglishOn<10>> = crowned_rules::parse_fen(fen).expect("valid");
            let flying: Position<International> = crowned_rules::parse_fen(fen).expect("valid");
            (evaluate_rules(&short), evaluate_rules(&flying))
        };
        let (short, flying) = with("W:WK28:B12,13");
        assert!(short < 0, "{short}");
        assert!(flying > 0, "{flying}");
    }

    #[test]
    fn men_near_the_crown_count_more() {
        // White men run towards square index 0: index 4 is on the second row, index 20 on the sixth.
        let far = Square::from_index(20);
        let near = Square::from_index(4);
        let with = |square: Square| {
            let mut pos = Position::<Russian>::empty(Color::White);
            pos.set_piece(square, Some(Piece::new(Color::White, Role::Man)));
            pos.set_piece(
                Square::from_index(31),
                Some(Piece::new(Color::Black, Role::Man)),
            );
            evaluate_rules(&pos)
        };
        assert!(with(near) > with(far), "{} {}", with(near), with(far));
    }
}
