//! A position of a defined variant on a plain mailbox board, and playing moves on it.

use super::rules::{Cell, DefinedRules};
use crate::Color;

/// What stands on a cell: a side and a kind (an index into [`DefinedRules::kinds`]).
pub type Occupant = (Color, usize);

/// A move as a route: where the piece starts, every cell it lands on, and the pieces it takes in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DefinedMove {
    /// The cell it starts from.
    pub from: Cell,
    /// Every cell it lands on in order; one for a quiet move, one per piece taken for a capture.
    pub path: Vec<Cell>,
    /// The cells of the pieces taken, in the order they were taken.
    pub captured: Vec<Cell>,
    /// The kind the piece is when the move ends (another than it began as if it was promoted).
    pub becomes: usize,
}

impl DefinedMove {
    /// The cell it ends on.
    pub fn to(&self) -> Cell {
        self.path.last().copied().unwrap_or(self.from)
    }
}

/// The pieces on a board of a defined variant, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefinedPosition {
    /// What stands on each cell (row-major, row 0 at the top); always `None` on cells that are not playable.
    pub cells: Vec<Option<Occupant>>,
    /// The side to move.
    pub side: Color,
}

impl DefinedPosition {
    /// The start of a game.
    pub fn start(rules: &DefinedRules) -> DefinedPosition {
        DefinedPosition {
            cells: rules.start.clone(),
            side: rules.first,
        }
    }

    /// An empty board with `side` to move.
    pub fn empty(rules: &DefinedRules, side: Color) -> DefinedPosition {
        DefinedPosition {
            cells: vec![None; rules.width * rules.height],
            side,
        }
    }

    /// Whether this position can stand on the board of `rules`: one entry per cell, pieces only on playable
    /// cells, and every kind one of the rules' kinds. The generator finds no move in a position that does not.
    pub fn fits(&self, rules: &DefinedRules) -> bool {
        self.cells.len() == rules.width * rules.height
            && self
                .cells
                .iter()
                .zip(&rules.playable)
                .all(|(o, &playable)| match o {
                    None => true,
                    Some((_, kind)) => playable && *kind < rules.kinds.len(),
                })
    }

    /// The position after `mv`, one of this position's legal moves.
    pub fn play(&self, mv: &DefinedMove) -> DefinedPosition {
        let mut next = self.clone();
        // The start is cleared first: a route may end where it began.
        let Some(Some((color, _))) = next.cells.get(mv.from).copied() else {
            return next;
        };
        next.cells[mv.from] = None;
        for &cell in &mv.captured {
            if let Some(slot) = next.cells.get_mut(cell) {
                *slot = None;
            }
        }
        if let Some(slot) = next.cells.get_mut(mv.to()) {
            *slot = Some((color, mv.becomes));
        }
        next.side = self.side.opponent();
        next
    }

    /// Under `end.promotion_wins`, the side that has promoted a piece: the side that just moved, if both sides
    /// hold a promoted piece (a set-up position). `None` under other rules, and while nobody has promoted.
    pub fn promoted_winner(&self, rules: &DefinedRules) -> Option<Color> {
        if !rules.promotion_wins {
            return None;
        }
        let promoted = |side: Color| {
            self.cells.iter().flatten().any(|&(color, kind)| {
                color == side && rules.kinds.get(kind).is_some_and(|k| k.is_king)
            })
        };
        [self.side.opponent(), self.side]
            .into_iter()
            .find(|&side| promoted(side))
    }

    /// The side that has lost by `end.lone_man_loses`: left with one unpromoted piece while the other side has a
    /// promoted one (Turkish draughts). `None` when the rules have no such ending or it does not hold.
    pub fn lone_man_loser(&self, rules: &DefinedRules) -> Option<Color> {
        if !rules.lone_man_loses {
            return None;
        }
        // For each side: its pieces, and whether any is promoted.
        let side = |color: Color| {
            let mut pieces = 0;
            let mut promoted = false;
            for &(c, kind) in self.cells.iter().flatten() {
                if c == color {
                    pieces += 1;
                    promoted |= rules.kinds.get(kind).is_some_and(|k| k.is_king);
                }
            }
            (pieces, promoted)
        };
        let (black, white) = (side(Color::Black), side(Color::White));
        match (black, white) {
            ((1, false), (_, true)) => Some(Color::Black),
            ((_, true), (1, false)) => Some(Color::White),
            _ => None,
        }
    }

    /// A diagram: each piece's ASCII letter (upper case for White, lower for Black), `.` for an empty playable
    /// cell, `#` for a hole, blank otherwise; row 0 first.
    pub fn diagram(&self, rules: &DefinedRules) -> String {
        let mut text = String::new();
        for (cell, occupant) in self.cells.iter().enumerate() {
            let c = match occupant {
                _ if rules.holes.contains(&cell) => '#',
                _ if !rules.playable.get(cell).copied().unwrap_or(false) => ' ',
                None => '.',
                Some((color, kind)) => rules.kinds.get(*kind).map_or('?', |k| k.letter_of(*color)),
            };
            text.push(c);
            if cell % rules.width.max(1) == rules.width.saturating_sub(1) {
                text.push('\n');
            }
        }
        text
    }
}
