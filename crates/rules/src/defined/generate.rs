//! The general move generator: every legal move of any defined variant, found square by square.
//!
//! Written for clarity: captures are found by trying every jump from the square the piece stands on, one at a
//! time, recursively, on a copy of the board. A capture takes one piece per jump and a piece cannot be taken
//! twice, so a route is never longer than the opponent's pieces and the search always ends.

use std::collections::HashSet;

use super::format::{CrowningRule, NoMoves, PrecedenceRule};
use super::position::{DefinedMove, DefinedPosition, Occupant};
use super::rules::{Cell, DefinedRules, Step};
use crate::Color;

/// What the game's end asks of the moves: here, beside the generator, so that the position knows nothing of how
/// its moves are found.
impl DefinedPosition {
    /// The winner, if the game is over: a side has promoted first (under `end.promotion_wins`), or the side to
    /// move has no legal move.
    pub fn winner(&self, rules: &DefinedRules) -> Option<Color> {
        if let Some(side) = self.promoted_winner(rules) {
            return Some(side);
        }
        if !legal_moves(rules, self).is_empty() {
            return None;
        }
        Some(match rules.no_moves {
            NoMoves::Loses => self.side.opponent(),
            NoMoves::Wins => self.side,
        })
    }
}

/// The number of move sequences `depth` plies deep from `pos`, counting moves as published perft tables do: one
/// per start, order of pieces taken and end (routes that differ only in where a flying piece stopped between two
/// captures are one). Depth 0 counts the position itself. Rules that move as the built-in Turkish definition are
/// counted by its fast generator, every other definition by the general one ([`perft_general`]).
pub fn perft(rules: &DefinedRules, pos: &DefinedPosition, depth: u32) -> u64 {
    if !rules.has_fast_turkish() {
        return perft_general(rules, pos, depth);
    }
    if depth > 0 && !pos.fits(rules) {
        return 0;
    }
    super::turkish::perft(pos, depth)
}

/// [`perft`] by the general generator whatever the rules. A position where a side has won by promoting
/// (`end.promotion_wins`) has no moves in the count.
pub fn perft_general(rules: &DefinedRules, pos: &DefinedPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.promoted_winner(rules).is_some() {
        return 0;
    }
    let moves = legal_moves_general(rules, pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft_general(rules, &pos.play(mv), depth - 1))
        .sum()
}

/// Every legal move of the side to move. Capture routes are listed once per start, order of pieces taken and
/// end; of routes that differ only in where a flying piece stopped between captures, the first found stands
/// for them all. A position that does not fit the rules' board ([`DefinedPosition::fits`]) has no moves.
///
/// Rules that move as the built-in Turkish definition are played by its fast generator, which gives the same
/// list; every other definition by the general generator, [`legal_moves_general`].
pub fn legal_moves(rules: &DefinedRules, pos: &DefinedPosition) -> Vec<DefinedMove> {
    if !pos.fits(rules) {
        return Vec::new();
    }
    if rules.has_fast_turkish() {
        return super::turkish::legal_moves(pos);
    }
    legal_moves_general(rules, pos)
}

/// [`legal_moves`] by the general generator whatever the rules, so that it and a fast generator can check each
/// other.
pub fn legal_moves_general(rules: &DefinedRules, pos: &DefinedPosition) -> Vec<DefinedMove> {
    if !pos.fits(rules) {
        return Vec::new();
    }
    let mut captures = Vec::new();
    for (from, kind) in own_pieces(pos) {
        Search::new(rules, pos, from, kind).run(&mut captures);
    }
    let mut seen = HashSet::new();
    captures.retain(|m| seen.insert((m.from, m.captured.clone(), m.to())));
    let captures = preferred(rules, pos, captures);
    if rules.compulsory && !captures.is_empty() {
        return captures;
    }
    let mut moves = captures;
    for (from, kind) in own_pieces(pos) {
        quiet_moves(rules, pos, from, kind, &mut moves);
    }
    moves
}

/// The side to move's pieces: cell and kind.
fn own_pieces(pos: &DefinedPosition) -> impl Iterator<Item = (Cell, usize)> + '_ {
    pos.cells
        .iter()
        .enumerate()
        .filter_map(|(cell, o)| match o {
            Some((color, kind)) if *color == pos.side => Some((cell, *kind)),
            _ => None,
        })
}

/// The kind a piece of `kind` becomes on landing on `cell`, if it is promoted there.
fn promoted(rules: &DefinedRules, kind: usize, color: Color, cell: Cell) -> Option<usize> {
    let (to, row) = rules.kinds.get(kind)?.promotion?;
    (rules.row_from_own_side(cell, color) >= row).then_some(to)
}

/// The moves of one piece that take nothing: steps or slides to empty cells, and leaps over its own pieces.
fn quiet_moves(
    rules: &DefinedRules,
    pos: &DefinedPosition,
    from: Cell,
    kind: usize,
    out: &mut Vec<DefinedMove>,
) {
    let Some(k) = rules.kinds.get(kind) else {
        return;
    };
    let color = pos.side;
    let empty = |cell: Cell| pos.cells[cell].is_none();
    let mut add = |to: Cell| {
        out.push(DefinedMove {
            from,
            path: vec![to],
            captured: Vec::new(),
            becomes: promoted(rules, kind, color, to).unwrap_or(kind),
        });
    };
    for &step in &k.moves {
        let mut at = rules.step(from, color, step);
        while let Some(to) = at.filter(|&c| empty(c)) {
            add(to);
            at = if k.slides {
                rules.step(to, color, step)
            } else {
                None
            };
        }
    }
    for &step in &k.leaps {
        let over = rules.step(from, color, step);
        let own = over.is_some_and(|c| matches!(pos.cells[c], Some((c2, _)) if c2 == color));
        if let Some(to) = over.and_then(|c| rules.step(c, color, step))
            && own
            && empty(to)
        {
            add(to);
        }
    }
}

/// Keeps the captures the precedence rule allows.
fn preferred(
    rules: &DefinedRules,
    pos: &DefinedPosition,
    captures: Vec<DefinedMove>,
) -> Vec<DefinedMove> {
    let kind_at = |cell: Cell| pos.cells[cell].map(|(_, k)| k);
    let is_king = |cell: Cell| kind_at(cell).is_some_and(|k| rules.kinds[k].is_king);
    let kings_taken = |m: &DefinedMove| m.captured.iter().filter(|&&c| is_king(c)).count();
    let value = |m: &DefinedMove| {
        m.captured
            .iter()
            .filter_map(|&c| kind_at(c))
            .map(|k| u64::from(rules.kinds[k].value))
            .sum::<u64>()
    };
    match rules.precedence {
        PrecedenceRule::Free => captures,
        PrecedenceRule::Majority => keep_best(captures, |m| m.captured.len()),
        PrecedenceRule::Value => keep_best(captures, value),
        // Frisian: the most value, then a capture by a king (`true > false`).
        PrecedenceRule::ValueThenKing => keep_best(captures, |m| (value(m), is_king(m.from))),
        PrecedenceRule::KingsFirst => {
            if captures.iter().any(|m| is_king(m.from)) {
                captures.into_iter().filter(|m| is_king(m.from)).collect()
            } else {
                captures
            }
        }
        PrecedenceRule::MajorityThenKings => {
            keep_best(captures, |m| (m.captured.len(), kings_taken(m)))
        }
        // The rules' order: most pieces, then a capture by a king, then most kings, then the kings' places in
        // the order of capture (taking a king where the other takes a man wins, and `true > false`).
        PrecedenceRule::Italian => keep_best(captures, |m| {
            let kings: Vec<bool> = m.captured.iter().map(|&c| is_king(c)).collect();
            (m.captured.len(), is_king(m.from), kings_taken(m), kings)
        }),
    }
}

/// The moves whose `key` is the greatest.
fn keep_best<K: Ord>(moves: Vec<DefinedMove>, key: impl Fn(&DefinedMove) -> K) -> Vec<DefinedMove> {
    let best = moves.iter().map(&key).max();
    moves.into_iter().filter(|m| Some(key(m)) == best).collect()
}

/// The search for every complete capture of one piece.
struct Search<'a> {
    rules: &'a DefinedRules,
    /// The board during the move: the mover is lifted off its start, and pieces taken leave it at once if the
    /// rules say so.
    cells: Vec<Option<Occupant>>,
    /// Pieces jumped that still stand (removal at the end): they block the way and cannot be taken again.
    taken: Vec<bool>,
    color: Color,
    from: Cell,
    kind: usize,
    path: Vec<Cell>,
    captured: Vec<Cell>,
}

/// One jump: its direction, the piece jumped, and where the taker may land.
struct Jump {
    step: Step,
    over: Cell,
    landings: Vec<Cell>,
}

impl<'a> Search<'a> {
    fn new(rules: &'a DefinedRules, pos: &DefinedPosition, from: Cell, kind: usize) -> Self {
        let mut cells = pos.cells.clone();
        cells[from] = None;
        Search {
            rules,
            taken: vec![false; cells.len()],
            cells,
            color: pos.side,
            from,
            kind,
            path: Vec::new(),
            captured: Vec::new(),
        }
    }

    fn run(mut self, out: &mut Vec<DefinedMove>) {
        self.go_on(self.from, self.kind, None, out);
    }

    fn is_empty(&self, cell: Cell) -> bool {
        self.cells[cell].is_none()
    }

    /// Whether a piece of `kind` may take what stands on `cell`.
    fn can_take(&self, cell: Cell, kind: usize) -> bool {
        match self.cells[cell] {
            Some((color, victim)) => {
                color != self.color && !self.taken[cell] && self.rules.kinds[kind].takes[victim]
            }
            None => false,
        }
    }

    /// The jumps a piece of `kind` on `at` can make, having come by `came`.
    fn jumps(&self, at: Cell, kind: usize, came: Option<Step>) -> Vec<Jump> {
        let k = &self.rules.kinds[kind];
        let next = |cell: Cell, step: Step| self.rules.step(cell, self.color, step);
        let mut jumps = Vec::new();
        for &step in &k.captures {
            if !self.rules.may_reverse && came == Some((-step.0, -step.1)) {
                continue;
            }
            let mut over = next(at, step);
            if k.flying {
                while let Some(cell) = over.filter(|&c| self.is_empty(c)) {
                    over = next(cell, step);
                }
            }
            let Some(over) = over.filter(|&c| self.can_take(c, kind)) else {
                continue;
            };
            let mut landings = Vec::new();
            let mut land = next(over, step);
            while let Some(cell) = land.filter(|&c| self.is_empty(c)) {
                landings.push(cell);
                land = if k.flying && !k.lands_behind {
                    next(cell, step)
                } else {
                    None
                };
            }
            if !landings.is_empty() {
                jumps.push(Jump {
                    step,
                    over,
                    landings,
                });
            }
        }
        jumps
    }

    /// Goes on from `at`, where the piece (now of `kind`) has landed: tries every further jump, and records the
    /// route as complete when there is none.
    fn go_on(&mut self, at: Cell, kind: usize, came: Option<Step>, out: &mut Vec<DefinedMove>) {
        let jumps = self.jumps(at, kind, came);
        if jumps.is_empty() {
            if !self.captured.is_empty() {
                let at_end = match self.rules.crowning {
                    CrowningRule::OnlyAtEnd => promoted(self.rules, kind, self.color, at),
                    _ => None,
                };
                out.push(self.finished(at_end.unwrap_or(kind)));
            }
            return;
        }
        let before = self.captured.len();
        for jump in jumps {
            let victim = self.cells[jump.over];
            self.captured.push(jump.over);
            if self.rules.removed_at_once {
                self.cells[jump.over] = None;
            } else {
                self.taken[jump.over] = true;
            }
            let mut here = Vec::new();
            for land in jump.landings {
                self.path.push(land);
                match (
                    promoted(self.rules, kind, self.color, land),
                    self.rules.crowning,
                ) {
                    (Some(king), CrowningRule::EndsMove) => here.push(self.finished(king)),
                    (Some(king), CrowningRule::ContinuesAsKing) => {
                        self.go_on(land, king, Some(jump.step), &mut here);
                    }
                    _ => self.go_on(land, kind, Some(jump.step), &mut here),
                }
                self.path.pop();
            }
            // A capture must go on while it can: of the landings beyond this piece, those from which it goes on
            // are the only ones allowed if there are any.
            let continues = here.iter().any(|m| m.captured.len() > before + 1);
            out.extend(
                here.into_iter()
                    .filter(|m| !continues || m.captured.len() > before + 1),
            );
            self.cells[jump.over] = victim;
            self.taken[jump.over] = false;
            self.captured.pop();
        }
    }

    fn finished(&self, becomes: usize) -> DefinedMove {
        DefinedMove {
            from: self.from,
            path: self.path.clone(),
            captured: self.captured.clone(),
            becomes,
        }
    }
}
