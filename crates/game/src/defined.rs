//! A game of a variant defined by its players: the same record as [`Game`](super::Game) (history, undo and
//! redo, comments, marks, tags, declared endings) over [`DefinedBoard`]s, with the draw rules every definition
//! shares: a position back for the third time, or the definition's quiet-move limit; and the endings a definition
//! may ask for (a lone man against a king, one piece each).

use super::draws::Ending;
use super::marks::MoveMark;
use super::notes::Notes;
use super::numbering::MoveNumber;
use super::outcome::{DrawReason, Outcome, WinReason};
use super::record::GameError;
use super::tags::Tags;
use crowned_rules::defined::{DefinedBoard, DefinedId, parse_move};
use crowned_rules::{AnyPosition, Color, Move};

/// How many times a position may stand on the board before the game is drawn.
pub const DEFINED_REPETITIONS: u32 = 3;

/// A game of a defined variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinedGame {
    /// `positions[i]` is the position after `i` moves.
    positions: Vec<DefinedBoard>,
    moves: Vec<Move>,
    /// `quiet[i]`: moves before point `i` since the last capture or move of a piece that could still promote.
    quiet: Vec<u32>,
    /// The comments and marks.
    notes: Notes,
    cursor: usize,
    declared: Option<Outcome>,
    tags: Tags,
    /// The quiet-move limit in moves by each side (0: none).
    move_limit: u32,
}

impl DefinedGame {
    /// A new game from a position of a defined variant.
    pub fn from_position(start: DefinedBoard) -> DefinedGame {
        DefinedGame {
            positions: vec![start],
            moves: Vec::new(),
            quiet: vec![0],
            notes: Notes::new(),
            cursor: 0,
            declared: None,
            tags: Tags::new(),
            move_limit: start.entry().rules.quiet_moves,
        }
    }

    /// A new game from the definition's start.
    pub fn new(id: DefinedId) -> DefinedGame {
        DefinedGame::from_position(DefinedBoard::start(id))
    }

    /// The definition.
    pub fn id(&self) -> DefinedId {
        self.positions[0].id()
    }

    /// The start position.
    pub fn start(&self) -> &DefinedBoard {
        &self.positions[0]
    }

    /// Whether the game starts from a set-up position rather than the definition's start.
    pub fn is_set_up(&self) -> bool {
        self.positions[0] != DefinedBoard::start(self.id())
    }

    /// The position at the current point.
    pub fn position(&self) -> &DefinedBoard {
        &self.positions[self.cursor]
    }

    /// The position after `ply` moves, if the game is that long.
    pub fn position_at(&self, ply: usize) -> Option<&DefinedBoard> {
        self.positions.get(ply)
    }

    /// Every move recorded, including the redo line.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves have been played up to the current point.
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// How many moves are recorded.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is recorded.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    fn start_any(&self) -> AnyPosition {
        AnyPosition::Defined(self.positions[0])
    }

    /// The record's number of move number `ply` (1-based).
    pub fn move_number(&self, ply: usize) -> Option<MoveNumber> {
        let plies = ply.checked_sub(1).filter(|&p| p < self.moves.len())?;
        Some(MoveNumber::of_ply_any(&self.start_any(), plies))
    }

    /// How many numbered moves have been played up to the current point.
    pub fn moves_played(&self) -> usize {
        super::moves_played_any(&self.start_any(), self.cursor)
    }

    /// The number of the move to be played next.
    pub fn next_move_number(&self) -> MoveNumber {
        MoveNumber::of_ply_any(&self.start_any(), self.cursor)
    }

    /// The point after `ply` moves as players say it.
    pub fn point_text(&self, ply: usize) -> String {
        match (self.move_number(ply), self.move_text(ply)) {
            (Some(number), Some(text)) => format!("{number} {text}"),
            _ => "the start".to_string(),
        }
    }

    /// The move text of move number `ply` (1-based), by coordinates.
    pub fn move_text(&self, ply: usize) -> Option<String> {
        let before = self.positions.get(ply.checked_sub(1)?)?;
        Some(before.write_move(self.moves.get(ply - 1)?))
    }

    /// Moves the current point one move back.
    pub fn undo(&mut self) -> bool {
        self.go_to(self.cursor.wrapping_sub(1))
    }

    /// Moves the current point one move forward.
    pub fn redo(&mut self) -> bool {
        self.go_to(self.cursor + 1)
    }

    /// Moves the current point to just after `ply` moves.
    pub fn go_to(&mut self, ply: usize) -> bool {
        if ply > self.moves.len() {
            return false;
        }
        self.cursor = ply;
        true
    }

    /// Plays a legal move at the current point, dropping the redo line.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        if !self.position().legal_moves().iter().any(|m| m == mv) {
            return Err(GameError::NotLegal);
        }
        self.push(*mv);
        Ok(())
    }

    /// Plays a move given as text (`a1-b2`, `a1xc3xe5`).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let mv = parse_move(self.position(), text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays a move known to be legal.
    pub(crate) fn push(&mut self, mv: Move) {
        self.truncate();
        let before = self.positions[self.cursor];
        let after = before.play(&mv);
        let rules = &before.entry().rules;
        let promotes = before
            .occupant(mv.from())
            .is_some_and(|(_, kind)| rules.kinds[kind].promotion.is_some());
        let quiet = if mv.is_capture() || promotes {
            0
        } else {
            self.quiet[self.cursor] + 1
        };
        self.positions.push(after);
        self.moves.push(mv);
        self.quiet.push(quiet);
        self.notes.push();
        self.cursor += 1;
    }

    /// Drops everything after the current point.
    pub fn truncate(&mut self) {
        let keep = self.cursor + 1;
        self.moves.truncate(self.cursor);
        self.positions.truncate(keep);
        self.quiet.truncate(keep);
        self.notes.truncate(keep);
        self.declared = None;
    }

    /// `loser` resigns at the current point.
    pub fn resign(&mut self, loser: Color) -> Result<(), GameError> {
        self.declare(Outcome::Win {
            winner: loser.opponent(),
            reason: WinReason::Resignation,
        })
    }

    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.declare(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }

    /// Ends the game at the current point with an outcome decided outside the rules.
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(decided) = self.ruled_outcome(self.cursor) {
            return Err(GameError::Over(decided));
        }
        self.truncate();
        self.declared = Some(outcome);
        Ok(())
    }

    /// Takes back an ending declared at the current point.
    pub fn withdraw(&mut self) -> bool {
        self.cursor == self.moves.len() && self.declared.take().is_some()
    }

    /// How the game has ended at the current point, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_at(self.cursor)
    }

    /// How the game ends after all its moves, if it does.
    pub fn final_outcome(&self) -> Option<Outcome> {
        self.outcome_at(self.moves.len())
    }

    fn outcome_at(&self, ply: usize) -> Option<Outcome> {
        let declared = self.declared.filter(|_| ply == self.moves.len());
        self.ruled_outcome(ply).or(declared)
    }

    fn ruled_outcome(&self, ply: usize) -> Option<Outcome> {
        // The endings of lone pieces first: a lone man against a king has lost, whether or not it could move.
        if let Some(outcome) = self.lone_pieces_outcome(ply) {
            return Some(outcome);
        }
        let pos = &self.positions[ply];
        let side = pos.side_to_move();
        if let Some(winner) = pos.winner() {
            let rules = &pos.entry().rules;
            let moves_left = !pos.legal_moves().is_empty();
            let no_pieces = pos.occupants().all(|(_, (c, _))| c != side);
            let reason = match (moves_left, winner == side, no_pieces) {
                (true, _, _) if rules.promotion_wins => WinReason::CrownedFirst,
                (_, false, true) => WinReason::NoPieces,
                (_, false, false) => WinReason::NoMoves,
                (_, true, true) => WinReason::GaveAllAway,
                (_, true, false) => WinReason::Blocked,
            };
            return Some(Outcome::Win { winner, reason });
        }
        let quiet = self.quiet[ply] as usize;
        // A repetition is looked for back to the last capture, not to the last move of a piece that can still
        // promote: where men move sideways (Turkish) such a move can be undone, and two sides shuffling men back
        // and forth repeat positions that the quiet-move count, reset by every man's move, never ends.
        let since_capture = self.moves[..ply]
            .iter()
            .rev()
            .take_while(|m| !m.is_capture())
            .count();
        let repeats = self.positions[ply - since_capture..=ply]
            .iter()
            .filter(|p| **p == *pos)
            .count() as u32;
        if repeats >= DEFINED_REPETITIONS {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition { times: repeats },
            });
        }
        if self.move_limit > 0 && quiet >= 2 * self.move_limit as usize {
            return Some(Outcome::Draw {
                reason: DrawReason::MoveLimit {
                    moves: self.move_limit,
                },
            });
        }
        None
    }

    /// The definition's endings of one piece against few (Turkish draughts): a lone man against a king loses at
    /// once; one piece each is drawn after `one_each_moves` moves by each side without a capture.
    fn lone_pieces_outcome(&self, ply: usize) -> Option<Outcome> {
        let pos = &self.positions[ply];
        let rules = &pos.entry().rules;
        if !rules.lone_man_loses && rules.one_each_moves == 0 {
            return None;
        }
        if let Some(loser) = pos.to_position().lone_man_loser(rules) {
            return Some(Outcome::Win {
                winner: loser.opponent(),
                reason: WinReason::LoneMan,
            });
        }
        let pieces = |color: Color| pos.occupants().filter(|(_, (c, _))| *c == color).count();
        let moves = rules.one_each_moves;
        if moves > 0 && pieces(Color::Black) == 1 && pieces(Color::White) == 1 {
            // Plies since the last capture: the positions back to where the count of pieces last changed.
            let count = |p: &DefinedBoard| p.occupants().count();
            let since = self.positions[..=ply]
                .iter()
                .rev()
                .take_while(|p| count(p) == 2)
                .count()
                - 1;
            if since >= 2 * moves as usize {
                return Some(Outcome::Draw {
                    reason: DrawReason::Ending {
                        ending: Ending::OnePieceEach,
                        moves,
                    },
                });
            }
        }
        None
    }

    /// Sets the quiet-move limit in moves by each side (0 turns it off).
    pub fn set_move_limit(&mut self, moves: u32) {
        self.move_limit = moves;
    }

    /// The quiet-move limit in moves by each side.
    pub fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// The comment after move number `ply`.
    pub fn comment(&self, ply: usize) -> Option<&str> {
        self.notes.comment(ply)
    }

    /// Sets or clears a comment; `false` past the end.
    pub fn set_comment(&mut self, ply: usize, comment: Option<String>) -> bool {
        self.notes.set_comment(ply, comment)
    }

    /// The mark of move number `ply`.
    pub fn mark(&self, ply: usize) -> Option<MoveMark> {
        self.notes.mark(ply)
    }

    /// Sets or clears the mark of move `ply` (1 or more).
    pub fn set_mark(&mut self, ply: usize, mark: Option<MoveMark>) -> bool {
        self.notes.set_mark(ply, mark)
    }

    /// The tag pairs.
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The tag pairs, to change.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.tags
    }

    /// The result token: `1-0` when the side that moves first in the variant won, `0-1` when the other did.
    pub fn result_token(&self, outcome: Option<Outcome>) -> &'static str {
        let first = self.start().entry().rules.first;
        match outcome {
            None => "*",
            Some(outcome) if outcome.is_aborted() => "*",
            Some(Outcome::Draw { .. }) => "1/2-1/2",
            Some(Outcome::Win { winner, .. }) if winner == first => "1-0",
            Some(Outcome::Win { .. }) => "0-1",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::defined::load_builtin;

    /// A Turkish position with the pieces given as (side, kind, square), `side` to move.
    fn turkish(pieces: &[(Color, usize, &str)], side: Color) -> DefinedGame {
        let id = load_builtin("turkish").expect("built in").expect("loads");
        let mut board = DefinedBoard::empty(id, side);
        for &(color, kind, name) in pieces {
            let square = board.entry().square_named(name).expect("a square");
            assert!(board.set_occupant(
                crowned_rules::Square::from_index(square),
                Some((color, kind))
            ));
        }
        DefinedGame::from_position(board)
    }

    const MAN: usize = 0;
    const KING: usize = 1;

    #[test]
    fn a_lone_man_against_a_king_loses_at_once() {
        let game = turkish(
            &[(Color::White, KING, "a1"), (Color::Black, MAN, "h7")],
            Color::Black,
        );
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::LoneMan
            })
        );
        // A man with a friend still plays on; so does a lone man against men.
        let two = turkish(
            &[
                (Color::White, KING, "a1"),
                (Color::Black, MAN, "h7"),
                (Color::Black, MAN, "g7"),
            ],
            Color::Black,
        );
        assert_eq!(two.outcome(), None);
        let men = turkish(
            &[(Color::White, MAN, "a2"), (Color::Black, MAN, "h7")],
            Color::Black,
        );
        assert_eq!(men.outcome(), None);
    }

    #[test]
    fn one_piece_each_is_drawn_after_two_moves_each_without_a_capture() {
        let mut game = turkish(
            &[(Color::White, KING, "a1"), (Color::Black, KING, "h8")],
            Color::White,
        );
        for ply in 0..4 {
            assert_eq!(game.outcome(), None, "after {ply} plies");
            let mv = *game
                .position()
                .legal_moves()
                .iter()
                .find(|m| !m.is_capture())
                .expect("a quiet move");
            game.play(&mv).expect("legal");
        }
        let outcome = game.outcome().expect("drawn");
        assert_eq!(
            outcome,
            Outcome::Draw {
                reason: DrawReason::Ending {
                    ending: Ending::OnePieceEach,
                    moves: 2
                }
            }
        );
        assert_eq!(
            outcome.to_string(),
            "Draw: 2 moves each with one piece each, without a capture"
        );
    }
}
