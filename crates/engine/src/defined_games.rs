//! What the search walks in a defined variant ([`SearchRules`]): any definition on the general generator's board
//! ([`General`]); one that moves as Turkish draughts on the fast generator's bitboards ([`Turkish`]), several
//! times faster a node. Both give the same moves in the same order, the same keys, fingerprints and scores, so
//! the search walks the same tree on either.

use super::super::defined_eval::{evaluate_with, mops_up, worths};
use crate::engine_rules::EVAL_LIMIT;
use crate::king_runs::Runs;
use crate::nnue::NetCache;
use crate::search::{HISTORY_SQUARES, Moves, SearchRules};
use crowned_rules::defined::turkish::{KING, MAN, TurkishMove, TurkishPosition};
use crowned_rules::defined::{
    DefinedBoard, DefinedId, DefinedMove, DefinedPosition, DefinedRules, MAX_KINDS, NoMoves,
    legal_moves,
};
use crowned_rules::{Color, Move};

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

/// A move's fingerprint for the transposition table, the same from either generator: where it starts and
/// ends, and a digest of the cells it takes.
fn fingerprint(from: usize, to: usize, captured: impl Iterator<Item = usize>) -> u32 {
    let digest = captured.fold(0u64, |d, cell| d ^ mix(cell as u64 + 1));
    let word = (from as u32 & 0xFF) | (to as u32 & 0xFF) << 8 | (digest as u32 & 0x7FFF) << 16;
    word + 1
}

/// The static score as the search takes it: within the bounds every evaluation keeps, far below a proven
/// result (a definition may value a piece at a thousand men).
fn bounded(score: i32) -> i32 {
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Any definition, on the general generator's board.
pub(super) struct General {
    id: DefinedId,
    rules: &'static DefinedRules,
    worth: [i32; MAX_KINDS],
    /// Each cell's playable square (below [`HISTORY_SQUARES`]): the history table's rows and columns.
    squares: Vec<u8>,
}

/// A position of [`General`]: the board and its key, kept up to date move by move.
#[derive(Clone)]
pub(super) struct Keyed {
    pos: DefinedPosition,
    key: u64,
}

impl General {
    /// The search's rules for the definition `id`.
    pub(super) fn new(id: DefinedId) -> Self {
        let rules = &id.get().rules;
        let mut next = 0;
        let squares = rules
            .playable
            .iter()
            .map(|&playable| {
                let square = next.min(HISTORY_SQUARES - 1) as u8;
                next += usize::from(playable);
                square
            })
            .collect();
        General {
            id,
            rules,
            worth: worths(rules),
            squares,
        }
    }

    /// The search's position for one of the general generator's.
    pub(super) fn position(&self, pos: &DefinedPosition) -> Keyed {
        Keyed {
            pos: pos.clone(),
            key: position_key(pos),
        }
    }

    fn square(&self, cell: usize) -> usize {
        usize::from(self.squares.get(cell).copied().unwrap_or(0))
    }
}

impl SearchRules for General {
    type Pos = Keyed;
    type Move = DefinedMove;

    fn moves(&self, pos: &Keyed, _: Runs, out: &mut Moves<DefinedMove>) {
        out.clear();
        out.extend(legal_moves(self.rules, &pos.pos));
    }

    fn must_capture(&self, moves: &[DefinedMove]) -> bool {
        // A definition may leave captures free: only a node whose every move takes is a forced one.
        !moves.is_empty() && moves.iter().all(|m| !m.captured.is_empty())
    }

    fn is_capture(&self, m: &DefinedMove) -> bool {
        !m.captured.is_empty()
    }

    fn taken(&self, m: &DefinedMove) -> u32 {
        m.captured.len() as u32
    }

    fn crowns(&self, pos: &Keyed, m: &DefinedMove) -> bool {
        pos.pos
            .cells
            .get(m.from)
            .copied()
            .flatten()
            .is_some_and(|(_, kind)| kind != m.becomes)
    }

    fn fingerprint(&self, m: &DefinedMove) -> u32 {
        fingerprint(m.from, m.to(), m.captured.iter().copied())
    }

    fn history_slot(&self, m: &DefinedMove) -> (usize, usize) {
        (self.square(m.from), self.square(m.to()))
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

    fn key(&self, pos: &Keyed) -> u64 {
        pos.key
    }

    fn key_after(&self, _: u64, _: &Keyed, _: &DefinedMove, after: &Keyed) -> u64 {
        after.key
    }

    fn irreversible(&self, _: &Keyed, m: &DefinedMove) -> bool {
        // A man may move sideways or back in a definition: only a capture is sure never to be undone, which is
        // also how far back the game looks for repetitions.
        !m.captured.is_empty()
    }

    fn pieces(&self, pos: &Keyed) -> u32 {
        pos.pos.cells.iter().flatten().count() as u32
    }

    fn decided(&self, pos: &Keyed) -> Option<bool> {
        let rules = self.rules;
        let mover = pos.pos.side.opponent();
        let promoted = pos
            .pos
            .cells
            .iter()
            .flatten()
            .any(|&(c, kind)| c == mover && rules.kinds[kind].is_king);
        if rules.promotion_wins && promoted {
            return Some(false);
        }
        let loser = pos.pos.lone_man_loser(rules)?;
        Some(loser != pos.pos.side)
    }

    fn wins_without_moves(&self, _: &Keyed) -> bool {
        self.rules.no_moves == NoMoves::Wins
    }

    fn to_move(&self, pos: &Keyed, m: &DefinedMove) -> Option<Move> {
        DefinedBoard::from_position(self.id, &pos.pos).to_move(m)
    }

    fn evaluate(&self, _: &mut Option<Box<NetCache>>, pos: &Keyed, _: usize) -> i32 {
        bounded(evaluate_with(self.rules, &self.worth, &pos.pos))
    }
}

/// A definition that moves as Turkish draughts ([`DefinedRules::has_fast_turkish`]), on the fast generator's
/// bitboards. Its names, values and end rules may still differ from the built-in one's, so those are read off
/// the rules as [`General`] reads them.
pub(super) struct Turkish {
    id: DefinedId,
    rules: &'static DefinedRules,
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

/// The squares of `set`.
fn squares(set: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&cell| set & 1 << cell != 0)
}

impl Turkish {
    /// The search's rules for the definition `id`, if it moves as Turkish draughts and `root` stands on its
    /// board.
    pub(super) fn new(id: DefinedId, root: &DefinedPosition) -> Option<Self> {
        let rules = &id.get().rules;
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
            id,
            rules,
            worth: worths(rules),
            crowned: [rules.kinds[MAN].is_king, rules.kinds[KING].is_king],
            progress,
            keys,
        })
    }

    /// The search's position for one of the general generator's.
    pub(super) fn position(&self, pos: &DefinedPosition) -> KeyedTurkish {
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

impl SearchRules for Turkish {
    type Pos = KeyedTurkish;
    type Move = TurkishMove;

    fn moves(&self, pos: &KeyedTurkish, _: Runs, out: &mut Moves<TurkishMove>) {
        *out = pos.board.steps();
    }

    fn must_capture(&self, moves: &[TurkishMove]) -> bool {
        !moves.is_empty() && moves.iter().all(|m| m.taken != 0)
    }

    fn is_capture(&self, m: &TurkishMove) -> bool {
        m.taken != 0
    }

    fn taken(&self, m: &TurkishMove) -> u32 {
        m.taken.count_ones()
    }

    fn crowns(&self, pos: &KeyedTurkish, m: &TurkishMove) -> bool {
        m.king && pos.board.kings & 1 << m.from == 0
    }

    fn fingerprint(&self, m: &TurkishMove) -> u32 {
        fingerprint(m.from as usize, m.to as usize, squares(m.taken))
    }

    fn history_slot(&self, m: &TurkishMove) -> (usize, usize) {
        (m.from as usize & 63, m.to as usize & 63)
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

    fn key(&self, pos: &KeyedTurkish) -> u64 {
        pos.key
    }

    fn key_after(&self, _: u64, _: &KeyedTurkish, _: &TurkishMove, after: &KeyedTurkish) -> u64 {
        after.key
    }

    fn irreversible(&self, _: &KeyedTurkish, m: &TurkishMove) -> bool {
        // Turkish men move sideways: only a capture is sure never to be undone.
        m.taken != 0
    }

    fn pieces(&self, pos: &KeyedTurkish) -> u32 {
        (pos.board.us | pos.board.them).count_ones()
    }

    fn decided(&self, pos: &KeyedTurkish) -> Option<bool> {
        let b = &pos.board;
        if self.rules.promotion_wins && self.any_crowned(b.them, b.kings) {
            return Some(false);
        }
        if !self.rules.lone_man_loses {
            return None;
        }
        let lone = |set: u64| set.count_ones() == 1 && !self.any_crowned(set, b.kings);
        if lone(b.us) && self.any_crowned(b.them, b.kings) {
            // Checked for the side to move first as `lone_man_loser` checks Black first; both cannot hold.
            return Some(false);
        }
        if lone(b.them) && self.any_crowned(b.us, b.kings) {
            return Some(true);
        }
        None
    }

    fn wins_without_moves(&self, _: &KeyedTurkish) -> bool {
        self.rules.no_moves == NoMoves::Wins
    }

    fn to_move(&self, pos: &KeyedTurkish, m: &TurkishMove) -> Option<Move> {
        // Only for the line the search reports: worked out on the general board.
        let general = self.general(&pos.board);
        let route = legal_moves(self.rules, &general)
            .into_iter()
            .find(|route| TurkishMove::of(route) == *m)?;
        DefinedBoard::from_position(self.id, &general).to_move(&route)
    }

    fn evaluate(&self, _: &mut Option<Box<NetCache>>, pos: &KeyedTurkish, _: usize) -> i32 {
        let b = &pos.board;
        if self.rules.no_moves == NoMoves::Wins {
            return bounded(evaluate_with(self.rules, &self.worth, &self.general(b)));
        }
        let (my_material, my_progress) = self.worth_of(b.us, b.kings, b.side);
        let (their_material, their_progress) = self.worth_of(b.them, b.kings, b.side ^ 1);
        let lead = my_material - their_material;
        let weaker = if lead > 0 { b.them } else { b.us };
        if mops_up(lead, weaker.count_ones() as usize) {
            // A won ending: rare enough in a search to be worked out on the general board.
            return bounded(evaluate_with(self.rules, &self.worth, &self.general(b)));
        }
        bounded(lead + my_progress - their_progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crowned_rules::defined::load_builtin;

    /// Random Turkish games played on both at once: the same moves, keys, fingerprints, scores and endings.
    #[test]
    fn the_turkish_rules_play_as_the_general_ones() {
        let id = load_builtin("turkish").expect("built in").expect("loads");
        let rules = &id.get().rules;
        let start = DefinedPosition::start(rules);
        let fast = Turkish::new(id, &start).expect("moves as Turkish");
        let general = General::new(id);
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..20 {
            let (mut a, mut b) = (fast.position(&start), general.position(&start));
            for _ in 0..200 {
                assert_eq!(fast.key(&a), general.key(&b));
                assert_eq!(general.key(&b), position_key(&b.pos));
                assert_eq!(
                    fast.evaluate(&mut None, &a, 0),
                    general.evaluate(&mut None, &b, 0),
                    "{}",
                    b.pos.diagram(rules)
                );
                assert_eq!(fast.decided(&a), general.decided(&b));
                let (mut fast_moves, mut moves) = (Moves::new(), Moves::new());
                fast.moves(&a, Runs::default(), &mut fast_moves);
                general.moves(&b, Runs::default(), &mut moves);
                let converted: Vec<TurkishMove> = moves.iter().map(TurkishMove::of).collect();
                assert_eq!(fast_moves.as_slice(), converted.as_slice());
                assert_eq!(fast.must_capture(&fast_moves), general.must_capture(&moves));
                for (f, g) in fast_moves.iter().zip(&moves) {
                    assert_eq!(fast.fingerprint(f), general.fingerprint(g));
                    assert_eq!(fast.crowns(&a, f), general.crowns(&b, g));
                    assert!(fast.history_slot(f).0 < HISTORY_SQUARES);
                }
                checked += 1;
                if moves.is_empty() {
                    break;
                }
                let i = rng.below(moves.len());
                assert_eq!(
                    fast.to_move(&a, &fast_moves[i]),
                    general.to_move(&b, &moves[i])
                );
                (a, b) = (fast.play(&a, &fast_moves[i]), general.play(&b, &moves[i]));
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
