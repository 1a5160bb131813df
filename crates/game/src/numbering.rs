//! Counting moves as draughts players do: a move is one turn of each side, numbered as in the record (`12.` for
//! the first player's turn, `12...` for the second's), so that "move 12" means the same on screen and on paper.

use std::fmt;

use crowned_rules::{Color, GamePosition};

/// A turn as the record numbers it: the move number and the side that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The number written before the move (1 for the first).
    pub number: usize,
    /// The side that moves.
    pub side: Color,
    /// Whether this side moves second in the variant, written `12...` in the record.
    pub second: bool,
}

impl MoveNumber {
    /// The turn of the move played from `start` after `plies` other moves (plies counted from 0). The side that
    /// moves first in the variant opens each number; a game set up with the other side to move starts with
    /// `1...`.
    pub fn of_ply(start: &impl GamePosition, plies: usize) -> MoveNumber {
        MoveNumber::of_ply_from(start.side_to_move(), start.first_to_move(), plies)
    }

    /// The turn of a move after `plies` others, in a game whose start has `starter` to move under rules where
    /// `first` moves first.
    pub fn of_ply_from(starter: Color, first: Color, plies: usize) -> MoveNumber {
        let offset = usize::from(starter != first);
        let slot = plies + offset;
        let second = slot % 2 == 1;
        MoveNumber {
            number: slot / 2 + 1,
            side: if second { first.opponent() } else { first },
            second,
        }
    }
}

impl MoveNumber {
    /// The number as a message cites a move: `12` for the first mover's turn, `12...` for the other's.
    pub fn cited(&self) -> String {
        if self.second {
            format!("{}...", self.number)
        } else {
            self.number.to_string()
        }
    }
}

impl fmt::Display for MoveNumber {
    /// `12.` or `12...`, as in the record.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.second {
            write!(f, "{}...", self.number)
        } else {
            write!(f, "{}.", self.number)
        }
    }
}

/// How many numbered moves `plies` single moves from `start` make: the number of the last one, or 0.
pub fn moves_played(start: &impl GamePosition, plies: usize) -> usize {
    match plies.checked_sub(1) {
        Some(last) => MoveNumber::of_ply(start, last).number,
        None => 0,
    }
}

/// `1 move`, `3 moves`: a count with its noun, singular or plural.
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{English, Position, parse_fen};

    #[test]
    fn moves_are_numbered_as_in_the_record() {
        let start: Position<English> = Position::start();
        let at = |plies| MoveNumber::of_ply(&start, plies);
        assert_eq!(at(0).to_string(), "1.");
        assert_eq!(at(0).side, Color::Black);
        assert_eq!(at(1).to_string(), "1...");
        assert_eq!(at(1).side, Color::White);
        assert_eq!(at(22).to_string(), "12.");
        assert_eq!(moves_played(&start, 0), 0);
        assert_eq!(moves_played(&start, 1), 1);
        assert_eq!(moves_played(&start, 2), 1);
        assert_eq!(moves_played(&start, 5), 3);
        // A set-up position with White to move starts with 1... and its second move is 2.
        let white_first: Position<English> = parse_fen("W:W21:B1").expect("valid");
        let at = |plies| MoveNumber::of_ply(&white_first, plies);
        assert_eq!(at(0).to_string(), "1...");
        assert_eq!(at(0).side, Color::White);
        assert_eq!(at(1).to_string(), "2.");
        assert_eq!(moves_played(&white_first, 2), 2);
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(0, "move", "moves"), "0 moves");
        assert_eq!(count(1, "move", "moves"), "1 move");
        assert_eq!(count(2, "move", "moves"), "2 moves");
    }
}
