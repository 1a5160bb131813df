//! A game over time: where it started, the moves played, the point the players are looking at, and its end.

use thiserror::Error;

use super::counts::Counts;
use super::draws::DrawRules;
use super::king_moves;
use super::marks::MoveMark;
use super::notes::Notes;
use super::outcome::{DrawReason, Outcome, WinReason};
use super::tags::Tags;
use crowned_rules::{
    English, FenError, GamePosition, Move, MoveError, MoveList, Position, RuleSet, Rules, Square,
    SquareStyle, Strictness, Variant, parse_fen,
};

/// The length of English draughts' move-limit draw rule: 40 moves by each side.
pub const DEFAULT_MOVE_LIMIT: u32 = DrawRules::of(Variant::English).quiet_moves;

/// Why a game refused a request.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The move is not legal here.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The move is not one of this position's legal moves.
    #[error("that move is not legal in this position")]
    NotLegal,
    /// A Frisian king that has made three quiet moves in a row while its side has men may not make a fourth.
    #[error(
        "the king on {0} has moved three times in a row without capturing: while its side has men, another piece \
         moves now (or it captures)"
    )]
    KingBarred(u32),
    /// The game has ended at this point.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// A set-up position could not be read.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
}

/// A game: a start position, the moves played from it, and a current point that undo and redo move.
///
/// The moves after the current point are the redo line: [`Game::redo`] replays them, and playing a different
/// move at the current point drops them. Draws under the variant's rules ([`DrawRules::of_position`]: by
/// repetition, by the move limit, by an ending not won in time) and losses by having no piece or no move follow
/// from the moves; resignation and agreement are declared.
///
/// One game type for every variant: `R` is a built-in rule set, or [`Defined`](crowned_rules::Defined) for the
/// variants players define, whose positions carry their definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<R: Rules = English> {
    /// `positions[i]` is the position after `i` moves; `positions[0]` is the start.
    positions: Vec<R::Position>,
    moves: Vec<Move>,
    /// What the draw rules count at each point.
    counts: Counts<R::Position>,
    /// The comments and marks.
    notes: Notes,
    cursor: usize,
    /// An ending declared at the end of the moves: a resignation, an agreement, a result from a record.
    declared: Option<Outcome>,
    tags: Tags,
    draws: DrawRules,
}

impl<R: RuleSet> Default for Game<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: RuleSet> Game<R> {
    /// A new game from the standard start.
    pub fn new() -> Self {
        Self::from_position(Position::start())
    }

    /// A new game from a position in PDN FEN.
    pub fn from_fen(fen: &str) -> Result<Self, GameError> {
        Ok(Self::from_position(parse_fen(fen)?))
    }
}

impl<R: Rules> Game<R> {
    /// A new game from a set-up position.
    pub fn from_position(start: R::Position) -> Self {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            counts: Counts::new(start),
            notes: Notes::new(),
            cursor: 0,
            declared: None,
            tags: Tags::new(),
            draws: DrawRules::of_position(&start),
        }
    }

    /// Sets the move-limit draw: `moves` moves by each side without a capture or a man move (0 turns it off),
    /// in place of the variant's own length.
    pub fn set_move_limit(&mut self, moves: u32) {
        self.draws.quiet_moves = moves;
    }

    /// The move-limit length in moves by each side.
    pub fn move_limit(&self) -> u32 {
        self.draws.quiet_moves
    }

    /// The draw rules the game is played under: its variant's, unless changed.
    pub fn draw_rules(&self) -> DrawRules {
        self.draws
    }

    /// Plays the game under other draw rules from now on, counting the moves already played under them.
    pub fn set_draw_rules(&mut self, rules: DrawRules) {
        self.draws = rules;
        self.counts
            .recount_endings(&self.positions, &self.moves, &self.draws);
    }

    /// The start position.
    pub fn start(&self) -> &R::Position {
        &self.positions[0]
    }

    /// Whether the game starts from a set-up position rather than the standard start.
    pub fn is_set_up(&self) -> bool {
        self.positions[0] != self.positions[0].standard_start()
    }

    /// The position at the current point.
    pub fn position(&self) -> &R::Position {
        &self.positions[self.cursor]
    }

    /// The position after `ply` moves, if the game is that long.
    pub fn position_at(&self, ply: usize) -> Option<&R::Position> {
        self.positions.get(ply)
    }

    /// Every move recorded, including the redo line after the current point.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves have been played up to the current point.
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// How many moves are recorded, including the redo line.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is recorded.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The record's number of move number `ply` (1-based): `12.` or `12...`.
    pub fn move_number(&self, ply: usize) -> Option<super::MoveNumber> {
        let plies = ply.checked_sub(1).filter(|&p| p < self.moves.len())?;
        Some(super::MoveNumber::of_ply(self.start(), plies))
    }

    /// How many numbered moves (a turn of each side) have been played up to the current point, as the record
    /// counts them: 5 single moves from the standard start are 3 moves.
    pub fn moves_played(&self) -> usize {
        super::moves_played(self.start(), self.cursor)
    }

    /// The number of the move to be played next, as the record will write it.
    pub fn next_move_number(&self) -> super::MoveNumber {
        super::MoveNumber::of_ply(self.start(), self.cursor)
    }

    /// The point after `ply` moves as players say it: `the start`, or the last move with its number
    /// (`12... 23-19`).
    pub fn point_text(&self, ply: usize, style: SquareStyle) -> String {
        match (self.move_number(ply), self.move_text(ply, style)) {
            (Some(number), Some(text)) => format!("{number} {text}"),
            _ => "the start".to_string(),
        }
    }

    /// Moves the current point one move back. Returns `false` at the start.
    pub fn undo(&mut self) -> bool {
        self.go_to(self.cursor.wrapping_sub(1))
    }

    /// Moves the current point one move forward along the redo line. Returns `false` at its end.
    pub fn redo(&mut self) -> bool {
        self.go_to(self.cursor + 1)
    }

    /// Moves the current point to just after `ply` moves. Returns `false`, changing nothing, past the end.
    pub fn go_to(&mut self, ply: usize) -> bool {
        if ply > self.moves.len() {
            return false;
        }
        self.cursor = ply;
        true
    }

    /// The move text of move number `ply` (1-based), written as players expect to read it.
    pub fn move_text(&self, ply: usize, style: SquareStyle) -> Option<String> {
        let before = self.positions.get(ply.checked_sub(1)?)?;
        let mv = self.moves.get(ply - 1)?;
        Some(before.write_move(mv, style))
    }

    /// The king of the side to move that may not make another quiet move at the current point (Frisian: three
    /// in a row while its side has men), if there is one.
    pub fn barred_king(&self) -> Option<Square> {
        self.barred_king_at(self.cursor)
    }

    /// [`barred_king`](Game::barred_king) after `ply` moves; `None` past the moves played.
    pub fn barred_king_at(&self, ply: usize) -> Option<Square> {
        if ply >= self.positions.len() {
            return None;
        }
        king_moves::barred_king(&self.positions[..=ply], &self.moves[..ply])
    }

    /// Both sides' runs of quiet king moves after `ply` moves (Frisian; empty under other rules); `None` past the
    /// moves played.
    pub fn king_runs_at(&self, ply: usize) -> Option<super::KingRuns> {
        let positions = self.positions.get(..=ply)?;
        Some(king_moves::king_runs(positions, &self.moves[..ply]))
    }

    /// The legal moves at the current point: the position's, less the quiet moves of a king that has made as
    /// many in a row as the rules allow.
    pub fn legal_moves(&self) -> MoveList {
        king_moves::allowed(self.position(), self.barred_king())
    }

    /// Plays `mv` at the current point, dropping the redo line.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        if !self.legal_moves().iter().any(|m| m.same_effect(mv)) {
            // A move of the position that the game's history bars is refused with its rule.
            let of_the_position = || {
                self.position()
                    .legal_moves()
                    .iter()
                    .any(|m| m.same_effect(mv))
            };
            return Err(match self.barred_king() {
                Some(king) if king_moves::is_barred(Some(king), mv) && of_the_position() => {
                    GameError::KingBarred(king.number())
                }
                _ => GameError::NotLegal,
            });
        }
        self.push(*mv);
        Ok(())
    }

    /// Plays a move given as text (`11-15`, `c3xe5`), dropping the redo line. Returns the move played.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let mv = self.position().parse_move(text, Strictness::Exact)?;
        if let Some(king) = self
            .barred_king()
            .filter(|&k| king_moves::is_barred(Some(k), &mv))
        {
            return Err(GameError::KingBarred(king.number()));
        }
        self.push(mv);
        Ok(mv)
    }

    /// Appends a move known to be legal at the current point, whatever the draw rules say: records may go on
    /// past a repetition that nobody claimed.
    pub(crate) fn push(&mut self, mv: Move) {
        self.truncate();
        let before = self.positions[self.cursor];
        let after = before.play(&mv);
        self.counts.push(&before, &mv, after, &self.draws);
        self.positions.push(after);
        self.moves.push(mv);
        self.notes.push();
        self.cursor += 1;
    }

    /// Drops everything after the current point (the redo line and any declared ending): the game goes on
    /// from here.
    pub fn truncate(&mut self) {
        self.counts.truncate(self.cursor + 1, &self.positions);
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.notes.truncate(self.cursor + 1);
        self.declared = None;
    }

    /// `loser` resigns at the current point (dropping the redo line).
    pub fn resign(&mut self, loser: crowned_rules::Color) -> Result<(), GameError> {
        self.declare(Outcome::Win {
            winner: loser.opponent(),
            reason: WinReason::Resignation,
        })
    }

    /// The players agree a draw at the current point (dropping the redo line).
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.declare(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }

    /// Ends the game at the current point with an outcome decided outside the rules (a resignation, an
    /// agreement, a result copied from a record). Refused when the rules have already ended it.
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(decided) = self.ruled_outcome(self.cursor) {
            return Err(GameError::Over(decided));
        }
        self.truncate();
        self.declared = Some(outcome);
        Ok(())
    }

    /// Takes back an ending declared at the current point (a resignation, an agreed draw), so that the game
    /// goes on from here. Returns `false`, changing nothing, when there is none.
    pub fn withdraw(&mut self) -> bool {
        if self.cursor == self.moves.len() && self.declared.take().is_some() {
            return true;
        }
        false
    }

    /// How the game has ended at the current point, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_at(self.cursor)
    }

    /// How the game ends after all its recorded moves, if it does.
    pub fn final_outcome(&self) -> Option<Outcome> {
        self.outcome_at(self.moves.len())
    }

    fn outcome_at(&self, ply: usize) -> Option<Outcome> {
        let declared = self.declared.filter(|_| ply == self.moves.len());
        self.ruled_outcome(ply).or(declared)
    }

    /// What the rules say at the point after `ply` moves: a loss for a side that cannot move (which comes first:
    /// a move that wins is not drawn by the count it completes), or a draw.
    fn ruled_outcome(&self, ply: usize) -> Option<Outcome> {
        let pos = &self.positions[ply];
        let side = pos.side_to_move();
        // A lone man against a king has lost (Turkish), whether or not it could move.
        if let Some(loser) = pos.lone_man_loser() {
            return Some(Outcome::Win {
                winner: loser.opponent(),
                reason: WinReason::LoneMan,
            });
        }
        if let Some(winner) = pos.crowned_winner() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::CrownedFirst,
            });
        }
        if king_moves::allowed(pos, self.barred_king_at(ply)).is_empty() {
            let no_pieces = pos.pieces().all(|(_, p)| p.color != side);
            let winner = pos.winner_without_moves();
            let reason = match (winner == side, no_pieces) {
                (false, true) => WinReason::NoPieces,
                (false, false) => WinReason::NoMoves,
                (true, true) => WinReason::GaveAllAway,
                (true, false) => WinReason::Blocked,
            };
            return Some(Outcome::Win { winner, reason });
        }
        self.counts
            .draw(ply, &self.draws)
            .map(|reason| Outcome::Draw { reason })
    }

    /// The comment after move number `ply` (0: before the first move).
    pub fn comment(&self, ply: usize) -> Option<&str> {
        self.notes.comment(ply)
    }

    /// Sets or clears the comment after move number `ply` (0: before the first move). Returns `false` past the
    /// end.
    pub fn set_comment(&mut self, ply: usize, comment: Option<String>) -> bool {
        self.notes.set_comment(ply, comment)
    }

    /// The mark of move number `ply` (`?`, `!?`...), if it has one.
    pub fn mark(&self, ply: usize) -> Option<MoveMark> {
        self.notes.mark(ply)
    }

    /// Sets or clears the mark of move number `ply` (1 or more). Returns `false` when there is no such move.
    pub fn set_mark(&mut self, ply: usize, mark: Option<MoveMark>) -> bool {
        self.notes.set_mark(ply, mark)
    }

    /// The tag pairs (players, event, date...).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The tag pairs, to change.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.tags
    }

    /// The result token for an outcome (`1-0`, `2-0`, `1/2-1/2`, `*`...), by the variant's conventions: the first
    /// number is the score of the side that moves first under the rules.
    pub fn result_token(&self, outcome: Option<Outcome>) -> &'static str {
        super::pdn::result_token(self.start(), outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::Color;

    fn play(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    #[test]
    fn undo_redo_and_dropping_the_redo_line() {
        let mut game: Game = Game::new();
        play(&mut game, "11-15 23-19 8-11");
        assert_eq!(game.ply(), 3);
        assert!(game.undo());
        assert!(game.undo());
        assert_eq!(game.ply(), 1);
        assert_eq!(game.len(), 3);
        assert!(game.redo());
        assert_eq!(
            game.move_text(2, SquareStyle::Numbers).as_deref(),
            Some("23-19")
        );
        assert!(game.go_to(0));
        assert!(!game.undo());
        assert_eq!(game.position(), game.start());
        assert!(game.go_to(3));
        assert!(!game.redo());
        assert!(!game.go_to(4));
        game.go_to(1);
        play(&mut game, "22-18");
        assert_eq!(game.len(), 2, "the redo line is gone");
        assert_eq!(
            game.move_text(2, SquareStyle::Numbers).as_deref(),
            Some("22-18")
        );
        assert_eq!(game.move_text(3, SquareStyle::Numbers), None);
        assert_eq!(game.move_text(0, SquareStyle::Numbers), None);
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut game: Game = Game::new();
        let err = game
            .play_text("22-18")
            .expect_err("White cannot move first");
        assert_eq!(err.to_string(), "there is no black piece on 22");
        assert_eq!(game.len(), 0);
        let other: Game = Game::from_fen("W:W21:B1").expect("valid");
        let foreign = other.position().legal_moves()[0];
        assert_eq!(game.play(&foreign), Err(GameError::NotLegal));
    }

    #[test]
    fn no_pieces_and_no_moves() {
        let mut game: Game = Game::from_fen("B:W18:B14").expect("valid");
        play(&mut game, "14x23");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::NoPieces
            })
        );
        assert!(matches!(game.play_text("1-5"), Err(GameError::Over(_))));
        let blocked: Game = Game::from_fen("W:W29:B25,22,18").expect("valid");
        assert_eq!(
            blocked.outcome(),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::NoMoves
            })
        );
    }

    #[test]
    fn threefold_repetition() {
        let mut game: Game = Game::from_fen("B:WK32:BK1").expect("valid");
        play(&mut game, "1-6 32-27 6-1 27-32 1-6 32-27 6-1");
        assert_eq!(
            game.outcome(),
            None,
            "the start position has occurred twice"
        );
        play(&mut game, "27-32");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::Repetition { times: 3 }
            })
        );
        game.undo();
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn repetitions_are_counted_as_a_scan_would_count_them_across_undo_and_new_lines() {
        // Kings and a man each, so that captures and man moves reset the count now and then.
        let mut game: Game = Game::from_fen("B:WK32,K28,21:BK1,K5,12").expect("valid");
        game.set_move_limit(0);
        let mut state = 7_u64;
        for step in 0..3000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let pick = (state >> 33) as usize;
            if game.outcome().is_some() || pick.is_multiple_of(7) {
                // Step back a little, sometimes, and go on along another line.
                for _ in 0..pick % 5 {
                    game.undo();
                }
                game.truncate();
            } else {
                let moves = game.position().legal_moves();
                let mv = moves[pick % moves.len()];
                game.play(&mv).expect("legal");
            }
            for ply in 0..game.positions.len() {
                let quiet = game.counts.points[ply].quiet as usize;
                let scanned = game.positions[ply - quiet..=ply]
                    .iter()
                    .filter(|p| **p == game.positions[ply])
                    .count();
                assert_eq!(
                    game.counts.points[ply].repeats as usize, scanned,
                    "step {step}, ply {ply}"
                );
            }
        }
    }

    #[test]
    fn move_limit() {
        let mut game: Game = Game::from_fen("B:WK32,K28:BK1,K5").expect("valid");
        game.set_move_limit(2);
        play(&mut game, "1-6 32-27 5-9");
        assert_eq!(game.outcome(), None);
        play(&mut game, "27-24");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::MoveLimit { moves: 2 }
            })
        );
        assert_eq!(game.move_limit(), 2);
        // A man move resets the count.
        let mut game: Game = Game::from_fen("B:WK32,K28:BK1,12").expect("valid");
        game.set_move_limit(2);
        play(&mut game, "1-6 32-27 12-16 27-32");
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn resignation_and_agreement() {
        let mut game: Game = Game::new();
        play(&mut game, "11-15 23-19");
        game.undo();
        game.resign(Color::White).expect("not over");
        assert_eq!(game.len(), 1, "resigning drops the redo line");
        assert_eq!(
            game.outcome().map(|o| o.to_string()).as_deref(),
            Some("Black wins: White resigned")
        );
        game.undo();
        assert_eq!(game.outcome(), None, "the resignation belongs to the end");
        game.redo();
        game.agree_draw().expect("not over");
        assert_eq!(game.outcome().map(|o| o.winner()), Some(None));
        assert!(game.withdraw(), "an agreement can be taken back");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.len(), 1, "and the moves stay");
        assert!(!game.withdraw(), "nothing is declared any more");
        // At the start too: resigning before any move, then taking it back.
        let mut fresh: Game = Game::new();
        fresh.resign(Color::Black).expect("not over");
        assert!(!fresh.undo(), "there is no move to take back");
        assert!(fresh.withdraw());
        assert_eq!(fresh.outcome(), None);
        // A ruled ending is not a declaration.
        let mut won: Game = Game::from_fen("B:W18:B14").expect("valid");
        play(&mut won, "14x23");
        assert!(won.outcome().is_some());
        assert!(!won.withdraw());
    }

    #[test]
    fn comments_and_tags() {
        let mut game: Game = Game::new();
        play(&mut game, "11-15");
        assert!(game.set_comment(1, Some("the Old Faithful".into())));
        assert!(game.set_comment(0, Some("before".into())));
        assert!(!game.set_comment(5, None));
        assert_eq!(game.comment(1), Some("the Old Faithful"));
        game.tags_mut().set("White", "Tinsley");
        assert_eq!(game.tags().get("White"), Some("Tinsley"));
        assert!(!game.is_set_up());
        assert!(
            Game::<English>::from_fen("W:W21:B1")
                .expect("valid")
                .is_set_up()
        );
        assert!(matches!(
            Game::<English>::from_fen("Q"),
            Err(GameError::Fen(_))
        ));
    }
}
