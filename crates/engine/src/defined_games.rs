//! What the defined-variant search plays on: a [`Generator`] gives the moves, plays them, keys and evaluates
//! the positions. Any definition is played on the general generator's board ([`General`]); one that moves as Turkish
//! draughts on the fast generator's bitboards ([`Turkish`]), several times faster a node. Both give the same
//! moves in the same order, the same keys and the same scores, so the search walks the same tree on either.

use std::ops::Deref;

use super::super::defined_eval::{evaluate_with, mops_up, worths};
use crowned_rules::Color;
use crowned_rules::defined::turkish::{KING, MAN, Steps, TurkishMove, TurkishPosition};
use crowned_rules::defined::{
    DefinedMove, DefinedPosition, DefinedRules, MAX_KINDS, NoMoves, legal_moves,
};

/// A won position's score; a win found `n` plies deep scores `WIN - n`.
pub(super) const WIN: i32 = 1_000_000;

/// The rules as the search plays them.
pub(super) trait Generator {
    /// A position with its key.
    type Pos;
    /// A move of a position.
    type Move: Clone + PartialEq;
    /// A position's moves.
    type Moves: Deref<Target = [Self::Move]>;

    /// The rules.
    fn rules(&self) -> &DefinedRules;
    /// The search's position for one of the general generator's.
    fn position(&self, pos: &DefinedPosition) -> Self::Pos;
    /// The search's move for one of the general generator's, of the same position.
    fn convert(&self, mv: &DefinedMove) -> Self::Move;
    /// The position's key: [`position_key`] of the same position.
    fn key(&self, pos: &Self::Pos) -> u64;
    /// Every legal move, in the general generator's order.
    fn moves(&self, pos: &Self::Pos) -> Self::Moves;
    /// Where a move starts and ends as one number below the square of the board's cells: the history's index.
    fn route(&self, mv: &Self::Move) -> usize;
    /// How many pieces a move takes.
    fn taken(&self, mv: &Self::Move) -> usize;
    /// The position after a move.
    fn play(&self, pos: &Self::Pos, mv: &Self::Move) -> Self::Pos;
    /// The evaluation for the side to move, as `defined_eval::evaluate_with` gives it.
    fn evaluate(&self, pos: &Self::Pos) -> i32;
    /// The score for the side to move of a game already over `ply` plies from the root by a rule other than
    /// having no move: a promotion where the first one wins, or a lone man against a king.
    fn ended(&self, pos: &Self::Pos, ply: u32) -> Option<i32>;
}

/// A position's key: a Zobrist-style sum of one pseudo-random number per (cell, side, kind) present and one for
/// the side to move, each drawn from a fixed mixer (SplitMix64's) so that no table is needed for any board size.
pub(super) fn position_key(pos: &DefinedPosition) -> u64 {
    let mut key = side_key(pos.side);
    for (cell, occupant) in pos.cells.iter().enumerate() {
        if let Some((color, kind)) = occupant {
            key ^= piece_key(cell, *color, *kind);
        }
    }
    key
}

fn side_key(side: Color) -> u64 {
    match side {
        Color::Black => 0,
        Color::White => mix(u64::MAX),
    }
}

/// A piece's share of the key.
fn piece_key(cell: usize, color: Color, kind: usize) -> u64 {
    let side = u64::from(color == Color::White);
    mix(((cell as u64) << 8) | (side << 7) | kind as u64)
}

/// SplitMix64's finaliser: a different, well-spread number for each input.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The score of a position where the game is already over, the side that has just moved having won.
fn lost(ply: u32) -> i32 {
    -(WIN - ply as i32)
}

/// Any definition, on the general generator's board.
pub(super) struct General<'a> {
    rules: &'a DefinedRules,
    worth: [i32; MAX_KINDS],
}

/// A position of [`General`]: the board and its key, kept up to date move by move.
#[derive(Clone)]
pub(super) struct Keyed {
    pos: DefinedPosition,
    key: u64,
}

impl<'a> General<'a> {
    /// The game of `rules`.
    pub(super) fn new(rules: &'a DefinedRules) -> Self {
        General {
            rules,
            worth: worths(rules),
        }
    }
}

impl Generator for General<'_> {
    type Pos = Keyed;
    type Move = DefinedMove;
    type Moves = Vec<DefinedMove>;

    fn rules(&self) -> &DefinedRules {
        self.rules
    }

    fn position(&self, pos: &DefinedPosition) -> Keyed {
        Keyed {
            pos: pos.clone(),
            key: position_key(pos),
        }
    }

    fn convert(&self, mv: &DefinedMove) -> DefinedMove {
        mv.clone()
    }

    fn key(&self, pos: &Keyed) -> u64 {
        pos.key
    }

    fn moves(&self, pos: &Keyed) -> Vec<DefinedMove> {
        legal_moves(self.rules, &pos.pos)
    }

    fn route(&self, mv: &DefinedMove) -> usize {
        mv.from * self.rules.width * self.rules.height + mv.to()
    }

    fn taken(&self, mv: &DefinedMove) -> usize {
        mv.captured.len()
    }

    fn play(&self, pos: &Keyed, mv: &DefinedMove) -> Keyed {
        // As `DefinedPosition::play`, each cell changed in turn with its share of the key, so that a route that
        // ends where it began or on a piece it took is keyed as it is played.
        let mut next = pos.clone();
        let Some(Some((color, _))) = next.pos.cells.get(mv.from).copied() else {
            return next;
        };
        let mut set = |cell: usize, to: Option<(Color, usize)>| {
            if let Some(slot) = next.pos.cells.get_mut(cell) {
                if let Some((c, k)) = *slot {
                    next.key ^= piece_key(cell, c, k);
                }
                if let Some((c, k)) = to {
                    next.key ^= piece_key(cell, c, k);
                }
                *slot = to;
            }
        };
        set(mv.from, None);
        for &cell in &mv.captured {
            set(cell, None);
        }
        set(mv.to(), Some((color, mv.becomes)));
        next.pos.side = pos.pos.side.opponent();
        next.key ^= side_key(Color::White);
        next
    }

    fn evaluate(&self, pos: &Keyed) -> i32 {
        evaluate_with(self.rules, &self.worth, &pos.pos)
    }

    fn ended(&self, pos: &Keyed, ply: u32) -> Option<i32> {
        let rules = self.rules;
        let mover = pos.pos.side.opponent();
        let promoted = pos
            .pos
            .cells
            .iter()
            .flatten()
            .any(|&(c, kind)| c == mover && rules.kinds[kind].is_king);
        if rules.promotion_wins && promoted {
            return Some(lost(ply));
        }
        let loser = pos.pos.lone_man_loser(rules)?;
        Some(if loser == pos.pos.side {
            lost(ply)
        } else {
            -lost(ply)
        })
    }
}

/// A definition that moves as Turkish draughts ([`DefinedRules::has_fast_turkish`]), on the fast generator's
/// bitboards. Its names, values and end rules may still differ from the built-in one's, so those are read off
/// the rules as [`General`] reads them.
pub(super) struct Turkish<'a> {
    rules: &'a DefinedRules,
    worth: [i32; MAX_KINDS],
    /// Whether each kind (man, king) is promoted: what `promotion_wins` and `lone_man_loses` look for.
    crowned: [bool; 2],
    /// Each kind's progress bonus on each square, by the board's side index (0 White, 1 Black).
    progress: [[[i32; 64]; 2]; 2],
    /// Each piece's share of the key, by side index, kind and square.
    keys: [[[u64; 64]; 2]; 2],
}

/// A position of [`Turkish`]: the bitboards and the key.
#[derive(Clone, Copy)]
pub(super) struct KeyedTurkish {
    board: TurkishPosition,
    key: u64,
}

/// The colour of the fast generator's side index.
fn color_of(side: usize) -> Color {
    if side == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Calls `f` with each square of `set`.
fn each(mut set: u64, mut f: impl FnMut(usize)) {
    while set != 0 {
        f(set.trailing_zeros() as usize);
        set &= set - 1;
    }
}

impl<'a> Turkish<'a> {
    /// The game of `rules`, if they move as Turkish draughts and `root` stands on their board.
    pub(super) fn new(rules: &'a DefinedRules, root: &DefinedPosition) -> Option<Self> {
        if !rules.has_fast_turkish() || !root.fits(rules) || rules.kinds.len() != 2 {
            return None;
        }
        TurkishPosition::of(root)?;
        let mut progress = [[[0; 64]; 2]; 2];
        let mut keys = [[[0; 64]; 2]; 2];
        for side in 0..2 {
            let color = color_of(side);
            for kind in [MAN, KING] {
                for cell in 0..64 {
                    keys[side][kind][cell] = piece_key(cell, color, kind);
                    if let Some((_, row)) = rules.kinds[kind].promotion {
                        progress[side][kind][cell] =
                            6 * rules.row_from_own_side(cell, color).min(row) as i32;
                    }
                }
            }
        }
        Some(Turkish {
            rules,
            worth: worths(rules),
            crowned: [rules.kinds[MAN].is_king, rules.kinds[KING].is_king],
            progress,
            keys,
        })
    }

    /// The general generator's position of a board.
    fn general(&self, board: &TurkishPosition) -> DefinedPosition {
        let mut pos = DefinedPosition::empty(self.rules, color_of(board.side));
        for (pieces, side) in [(board.us, board.side), (board.them, board.side ^ 1)] {
            each(pieces, |cell| {
                let kind = if board.kings & 1 << cell != 0 {
                    KING
                } else {
                    MAN
                };
                pos.cells[cell] = Some((color_of(side), kind));
            });
        }
        pos
    }

    /// Whether the pieces of `set` include a promoted kind.
    fn any_crowned(&self, set: u64, kings: u64) -> bool {
        (self.crowned[KING] && set & kings != 0) || (self.crowned[MAN] && set & !kings != 0)
    }

    /// A side's material and progress.
    fn worth_of(&self, set: u64, kings: u64, side: usize) -> (i32, i32) {
        let material = self.worth[MAN] * (set & !kings).count_ones() as i32
            + self.worth[KING] * (set & kings).count_ones() as i32;
        let mut progress = 0;
        each(set, |cell| {
            let kind = if kings & 1 << cell != 0 { KING } else { MAN };
            progress += self.progress[side][kind][cell];
        });
        (material, progress)
    }
}

impl Generator for Turkish<'_> {
    type Pos = KeyedTurkish;
    type Move = TurkishMove;
    type Moves = Steps;

    fn rules(&self) -> &DefinedRules {
        self.rules
    }

    fn position(&self, pos: &DefinedPosition) -> KeyedTurkish {
        // `new` has checked the root; later positions come from it by `play`.
        let board = TurkishPosition::of(pos).unwrap_or(TurkishPosition {
            us: 0,
            them: 0,
            kings: 0,
            side: usize::from(pos.side == Color::Black),
        });
        KeyedTurkish {
            board,
            key: position_key(pos),
        }
    }

    fn convert(&self, mv: &DefinedMove) -> TurkishMove {
        TurkishMove::of(mv)
    }

    fn key(&self, pos: &KeyedTurkish) -> u64 {
        pos.key
    }

    fn moves(&self, pos: &KeyedTurkish) -> Steps {
        pos.board.steps()
    }

    fn route(&self, mv: &TurkishMove) -> usize {
        (mv.from * 64 + mv.to) as usize
    }

    fn taken(&self, mv: &TurkishMove) -> usize {
        mv.taken.count_ones() as usize
    }

    fn play(&self, pos: &KeyedTurkish, mv: &TurkishMove) -> KeyedTurkish {
        let b = &pos.board;
        let (us, them) = (b.side, b.side ^ 1);
        let was = if b.kings & 1 << mv.from != 0 {
            KING
        } else {
            MAN
        };
        let becomes = if mv.king { KING } else { MAN };
        let mut key = pos.key ^ side_key(Color::White);
        key ^= self.keys[us][was][mv.from as usize] ^ self.keys[us][becomes][mv.to as usize];
        each(mv.taken, |cell| {
            let kind = if b.kings & 1 << cell != 0 { KING } else { MAN };
            key ^= self.keys[them][kind][cell];
        });
        KeyedTurkish {
            board: b.play(mv),
            key,
        }
    }

    fn evaluate(&self, pos: &KeyedTurkish) -> i32 {
        let b = &pos.board;
        if self.rules.no_moves == NoMoves::Wins {
            return evaluate_with(self.rules, &self.worth, &self.general(b));
        }
        let (my_material, my_progress) = self.worth_of(b.us, b.kings, b.side);
        let (their_material, their_progress) = self.worth_of(b.them, b.kings, b.side ^ 1);
        let lead = my_material - their_material;
        let weaker = if lead > 0 { b.them } else { b.us };
        if mops_up(lead, weaker.count_ones() as usize) {
            // A won ending: rare enough in a search to be worked out on the general board.
            return evaluate_with(self.rules, &self.worth, &self.general(b));
        }
        lead + my_progress - their_progress
    }

    fn ended(&self, pos: &KeyedTurkish, ply: u32) -> Option<i32> {
        let b = &pos.board;
        if self.rules.promotion_wins && self.any_crowned(b.them, b.kings) {
            return Some(lost(ply));
        }
        if !self.rules.lone_man_loses {
            return None;
        }
        let lone = |set: u64| set.count_ones() == 1 && !self.any_crowned(set, b.kings);
        if lone(b.us) && self.any_crowned(b.them, b.kings) {
            // Checked for Black first as `lone_man_loser` does; both cannot hold at once.
            return Some(lost(ply));
        }
        if lone(b.them) && self.any_crowned(b.us, b.kings) {
            return Some(-lost(ply));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crowned_rules::defined::load_builtin;

    /// Random Turkish games played on both games at once: the same moves, keys, scores and endings.
    #[test]
    fn the_turkish_game_plays_as_the_general_one() {
        let id = load_builtin("turkish").expect("built in").expect("loads");
        let rules = &id.get().rules;
        let start = DefinedPosition::start(rules);
        let fast = Turkish::new(rules, &start).expect("moves as Turkish");
        let general = General::new(rules);
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..20 {
            let (mut a, mut b) = (fast.position(&start), general.position(&start));
            for ply in 0..200 {
                assert_eq!(fast.key(&a), general.key(&b));
                assert_eq!(general.key(&b), position_key(&b.pos));
                assert_eq!(
                    fast.evaluate(&a),
                    general.evaluate(&b),
                    "{}",
                    b.pos.diagram(rules)
                );
                assert_eq!(fast.ended(&a, ply), general.ended(&b, ply));
                let (fast_moves, moves) = (fast.moves(&a), general.moves(&b));
                let converted: Vec<TurkishMove> = moves.iter().map(|m| fast.convert(m)).collect();
                assert_eq!(fast_moves.as_slice(), converted.as_slice());
                checked += 1;
                if moves.is_empty() {
                    break;
                }
                let i = rng.below(moves.len());
                (a, b) = (fast.play(&a, &fast_moves[i]), general.play(&b, &moves[i]));
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
