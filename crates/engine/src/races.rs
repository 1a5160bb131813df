//! Races of men: a man that no piece of the other side can reach on its way to the crown will crown, and the
//! side whose free man gets there first wins the race. The search sees such a race only when the crowning is
//! within its horizon; this term sees it from the first quiet position where the way is free.
//!
//! Which rule sets count races, and how much a won race is worth, is the rule set's choice
//! ([`super::engine_rules::EngineRules::RACES`]): in Breakthrough the first king ends the game, and a won race
//! decides it. Elsewhere the term is left out: in Frisian, where a king is strong enough that crowning first
//! often decides the game too, a term that gave a free man part of a king's worth measured even with the build
//! before it (an SPRT of 200 games at 0.05 s a move: -8.7 Elo, 95% from -43 to +26), so it was not kept.

use crowned_rules::{Bits, Color, Geometry, Position, RuleSet, Square};

/// How much a race of men counts under a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Races {
    /// Not counted: the evaluation is as it was before races were scored.
    Ignored,
    /// The first king wins the game (Breakthrough): a won race is worth nearly as much as the game.
    Decisive,
}

/// The most layout bits a board spans.
const MAX_BITS: usize = 128;

/// For each side and each square (by layout bit): the squares from which a piece of the other side can meet a
/// man there before it crowns, and the rows the man has to go.
struct Zones {
    stop: [[u128; MAX_BITS]; 2],
    to_go: [[u8; MAX_BITS]; 2],
}

/// The zone of a man of `color` on (`row`, `col`) includes the square (`r`, `c`) of an enemy piece when:
///
/// * it is ahead (`k` rows towards the crown, up to the crowning row) and no further to the side than it is
///   ahead: enemy men walk towards the man, so each of them closes a row and at most a column a move, and one
///   outside this cone stays outside it while the man walks away from it;
/// * it is right beside or diagonally behind: men capture backwards, so a piece there may take the man before
///   it moves on;
/// * where pieces also capture along files and ranks (`orthogonal`), it is two rows behind on the same file,
///   and the cone is two columns wider, since a piece meets the man from two columns away.
const fn in_zone(k: i32, dc: i32, to_go: i32, orthogonal: bool) -> bool {
    let widen = if orthogonal { 2 } else { 0 };
    (k >= 1 && k <= to_go && dc <= k + widen)
        || (k == 0 && dc == 2)
        || (k == -1 && dc == 1)
        || (orthogonal && k == -2 && dc == 0)
}

const fn zones(g: Geometry, orthogonal: bool) -> Zones {
    let mut z = Zones {
        stop: [[0; MAX_BITS]; 2],
        to_go: [[0; MAX_BITS]; 2],
    };
    let last = g.height as i32 - 1;
    let mut i = 0;
    while i < g.squares() {
        let square = Square::from_index(i);
        let (row, col) = g.row_col(square);
        let (row, col) = (row as i32, col as i32);
        let bit = g.bit(square) as usize;
        let mut side = 0;
        while side < 2 {
            // Black (index 0) walks down the diagram to the last row, White up to row 0.
            let to_go = if side == 0 { last - row } else { row };
            z.to_go[side][bit] = to_go as u8;
            let mut j = 0;
            while j < g.squares() {
                let other = Square::from_index(j);
                let (r, c) = g.row_col(other);
                let (r, c) = (r as i32, c as i32);
                let k = if side == 0 { r - row } else { row - r };
                let dc = (c - col).abs();
                if j != i && in_zone(k, dc, to_go, orthogonal) {
                    z.stop[side][bit] |= 1 << g.bit(other);
                }
                j += 1;
            }
            side += 1;
        }
        i += 1;
    }
    z
}

/// One side's free men, as far as the score needs them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Free {
    /// How many men are free.
    count: i32,
    /// Their rows to go, summed.
    to_go: i32,
    /// The rows to go of the nearest, if any is free.
    nearest: Option<i32>,
}

fn free_men<R: RuleSet>(pos: &Position<R>, color: Color) -> Free {
    let z: &Zones = const { &zones(R::GEOMETRY, R::ORTHOGONAL_CAPTURES) };
    let mut free = Free::default();
    let theirs = pos.pieces[color.opponent().index()].to_u128();
    // A king of the other side reaches along whole diagonals: no man is sure to get past it.
    if (pos.pieces[color.opponent().index()] & pos.kings).to_u128() != 0 {
        return free;
    }
    let mut men = (pos.pieces[color.index()] & !pos.kings).to_u128();
    while men != 0 {
        let bit = men.trailing_zeros() as usize;
        men &= men - 1;
        if z.stop[color.index()][bit] & theirs == 0 {
            let to_go = i32::from(z.to_go[color.index()][bit]);
            free.count += 1;
            free.to_go += to_go;
            free.nearest = Some(free.nearest.map_or(to_go, |n: i32| n.min(to_go)));
        }
    }
    free
}

/// The plies until the nearest free man of a side crowns, if it has one: a move of its own per row, the
/// first of them now if it is the side to move.
fn plies_to_crown(free: Free, to_move: bool) -> Option<i32> {
    free.nearest.map(|rows| 2 * rows - i32::from(to_move))
}

/// The race score of `pos` from Black's point of view, in hundredths of a man.
pub(super) fn race_for_black<R: RuleSet>(pos: &Position<R>, races: Races) -> i32 {
    if races == Races::Ignored {
        return 0;
    }
    let black = free_men(pos, Color::Black);
    let white = free_men(pos, Color::White);
    let to_move = pos.side_to_move();
    let black_plies = plies_to_crown(black, to_move == Color::Black);
    let white_plies = plies_to_crown(white, to_move == Color::White);
    // Who crowns first, if anyone is sure to: the side with a free man that gets there strictly sooner.
    let leader = match (black_plies, white_plies) {
        (Some(b), Some(w)) if b < w => Some((Color::Black, b)),
        (Some(b), Some(w)) if w < b => Some((Color::White, w)),
        (Some(b), None) => Some((Color::Black, b)),
        (None, Some(w)) => Some((Color::White, w)),
        _ => None,
    };
    let sign = |color: Color| if color == Color::Black { 1 } else { -1 };
    match races {
        Races::Ignored => 0,
        Races::Decisive => {
            // The game is as good as over: worth four men, a little less the longer it takes, so that the
            // search still prefers the quicker crowning and a material lead does not outweigh the race.
            let won = leader.map_or(0, |(color, plies)| sign(color) * (400 - 4 * plies.min(50)));
            // A free man not yet winning a race still ties the other side down.
            won + 10 * (black.count - white.count)
        }
    }
}

#[cfg(test)]
#[path = "races_tests.rs"]
mod tests;
