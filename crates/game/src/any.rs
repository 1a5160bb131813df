//! A game under any rules, chosen at run time.
//!
//! [`Game<R>`] is compiled once per rule set (and once for every defined variant, [`Defined`]); the app, the
//! store and the files choose the rules while running. [`AnyGame`] is to games what [`AnyPosition`] is to
//! positions: one value for a game of any variant and board, whose methods pass to the typed game inside.
//! Generic code reaches the typed game through [`AnyGame::visit`] and [`AnyGame::visit_mut`].

use super::draws::DrawRules;
use super::marks::MoveMark;
use super::numbering::MoveNumber;
use super::outcome::Outcome;
use super::pdn::write_game;
use super::record::{Game, GameError};
use super::tags::Tags;
use crowned_rules::{
    AnyPosition, Color, Defined, FenError, GamePosition, GameType, Geometry, Move, MoveList,
    Playable, Rules, Square, SquareStyle, Variant,
};

/// Code generic over the rule set, run on a game of the rule set chosen at run time.
pub trait GameVisitor {
    /// What the code gives back.
    type Output;
    /// Runs the code on the typed game.
    fn visit<R: Playable>(self, game: &Game<R>) -> Self::Output;
    /// Runs the code on a game of a defined variant, whose rules are not compiled in.
    fn defined(self, game: &Game<Defined>) -> Self::Output;
}

/// Code generic over the rules, built in or defined alike, that changes a game of the rules chosen at run time:
/// one method serves every variant.
pub trait GameVisitorMut {
    /// What the code gives back.
    type Output;
    /// Runs the code on the typed game.
    fn visit<R: Rules>(self, game: &mut Game<R>) -> Self::Output;
}

macro_rules! any_game {
    ($($name:ident => $rules:ty),* $(,)?) => {
        /// A game under any of the rules this program plays.
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum AnyGame {
            $($name(Game<$rules>),)*
            /// A game of a variant defined by its players.
            Defined(Game<Defined>),
        }

        $(
            impl From<Game<$rules>> for AnyGame {
                fn from(game: Game<$rules>) -> AnyGame {
                    AnyGame::$name(game)
                }
            }
        )*

        impl AnyGame {
            /// A new game from a position (the standard start or a set-up one), under the position's rules.
            pub fn from_position(start: AnyPosition) -> AnyGame {
                match start {
                    $(AnyPosition::$name(p) => AnyGame::$name(Game::from_position(p)),)*
                    AnyPosition::Defined(board) => AnyGame::Defined(Game::from_position(board)),
                }
            }

            /// Runs generic code on the typed game.
            pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(AnyGame::$name(g) => visitor.visit(g),)*
                    AnyGame::Defined(g) => visitor.defined(g),
                }
            }

            /// Runs generic code that changes the typed game.
            pub fn visit_mut<V: GameVisitorMut>(&mut self, visitor: V) -> V::Output {
                match self {
                    $(AnyGame::$name(g) => visitor.visit(g),)*
                    AnyGame::Defined(g) => visitor.visit(g),
                }
            }
        }

        /// Runs one expression on the typed game inside, whatever its rules: it is compiled once per arm.
        macro_rules! forward {
            ($self:expr, |$g:ident| $body:expr) => {
                match $self {
                    $(AnyGame::$name($g) => $body,)*
                    AnyGame::Defined($g) => $body,
                }
            };
        }
    };
}

// The one list of the rule sets this program plays (the rules crate's): a rule set added there is a game here.
crowned_rules::playable_rule_sets!(any_game);

impl Default for AnyGame {
    fn default() -> Self {
        AnyGame::English(Game::new())
    }
}

impl From<Game<Defined>> for AnyGame {
    fn from(game: Game<Defined>) -> AnyGame {
        AnyGame::Defined(game)
    }
}

impl AnyGame {
    /// A new game of a game type, from its start with its rows of men.
    pub fn new(game_type: GameType) -> AnyGame {
        AnyGame::from_position(AnyPosition::start(game_type))
    }

    /// A new game of a game type from a position in PDN FEN.
    pub fn from_fen(game_type: GameType, fen: &str) -> Result<AnyGame, FenError> {
        AnyPosition::from_fen(game_type, fen).map(AnyGame::from_position)
    }

    /// The variant of the rules.
    pub fn variant(&self) -> Variant {
        forward!(self, |g| g.start().variant())
    }

    /// The board.
    pub fn geometry(&self) -> Geometry {
        forward!(self, |g| g.start().geometry())
    }

    /// The game type: the rules, and the rows of men of the start the game comes from (the variant's own rows
    /// when it starts from a set-up position).
    pub fn game_type(&self) -> GameType {
        let standard = forward!(self, |g| g.start().game_type());
        if !self.is_set_up() {
            return standard;
        }
        let start = self.start();
        (1..standard.size / 2)
            .map(|rows| GameType { rows, ..standard })
            .find(|other| AnyPosition::start(*other) == start)
            .unwrap_or(standard)
    }

    /// The start position.
    pub fn start(&self) -> AnyPosition {
        forward!(self, |g| AnyPosition::from(*g.start()))
    }

    /// Whether the game starts from a set-up position rather than the standard start.
    pub fn is_set_up(&self) -> bool {
        forward!(self, |g| g.is_set_up())
    }

    /// The position at the current point.
    pub fn position(&self) -> AnyPosition {
        forward!(self, |g| AnyPosition::from(*g.position()))
    }

    /// The position after `ply` moves, if the game is that long.
    pub fn position_at(&self, ply: usize) -> Option<AnyPosition> {
        forward!(self, |g| g.position_at(ply).map(|p| AnyPosition::from(*p)))
    }

    /// Every move recorded, including the redo line after the current point.
    pub fn moves(&self) -> &[Move] {
        forward!(self, |g| g.moves())
    }

    /// How many moves have been played up to the current point.
    pub fn ply(&self) -> usize {
        forward!(self, |g| g.ply())
    }

    /// How many moves are recorded, including the redo line.
    pub fn len(&self) -> usize {
        forward!(self, |g| g.len())
    }

    /// Whether no move is recorded.
    pub fn is_empty(&self) -> bool {
        forward!(self, |g| g.is_empty())
    }

    /// The record's number of move number `ply` (1-based).
    pub fn move_number(&self, ply: usize) -> Option<MoveNumber> {
        forward!(self, |g| g.move_number(ply))
    }

    /// How many numbered moves have been played up to the current point.
    pub fn moves_played(&self) -> usize {
        forward!(self, |g| g.moves_played())
    }

    /// The number of the move to be played next.
    pub fn next_move_number(&self) -> MoveNumber {
        forward!(self, |g| g.next_move_number())
    }

    /// The point after `ply` moves as players say it.
    pub fn point_text(&self, ply: usize, style: SquareStyle) -> String {
        forward!(self, |g| g.point_text(ply, style))
    }

    /// The move text of move number `ply` (1-based).
    pub fn move_text(&self, ply: usize, style: SquareStyle) -> Option<String> {
        forward!(self, |g| g.move_text(ply, style))
    }

    /// Moves the current point one move back. Returns `false` at the start.
    pub fn undo(&mut self) -> bool {
        forward!(self, |g| g.undo())
    }

    /// Moves the current point one move forward along the redo line. Returns `false` at its end.
    pub fn redo(&mut self) -> bool {
        forward!(self, |g| g.redo())
    }

    /// Moves the current point to just after `ply` moves. Returns `false`, changing nothing, past the end.
    pub fn go_to(&mut self, ply: usize) -> bool {
        forward!(self, |g| g.go_to(ply))
    }

    /// Plays `mv` at the current point, dropping the redo line.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        forward!(self, |g| g.play(mv))
    }

    /// Plays a move given as text, dropping the redo line. Returns the move played.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        forward!(self, |g| g.play_text(text))
    }

    /// Drops everything after the current point.
    pub fn truncate(&mut self) {
        forward!(self, |g| g.truncate())
    }

    /// `loser` resigns at the current point.
    pub fn resign(&mut self, loser: Color) -> Result<(), GameError> {
        forward!(self, |g| g.resign(loser))
    }

    /// The players agree a draw at the current point.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        forward!(self, |g| g.agree_draw())
    }

    /// Ends the game at the current point with an outcome decided outside the rules.
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), GameError> {
        forward!(self, |g| g.declare(outcome))
    }

    /// Takes back an ending declared at the current point.
    pub fn withdraw(&mut self) -> bool {
        forward!(self, |g| g.withdraw())
    }

    /// How the game has ended at the current point, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        forward!(self, |g| g.outcome())
    }

    /// How the game ends after all its recorded moves, if it does.
    pub fn final_outcome(&self) -> Option<Outcome> {
        forward!(self, |g| g.final_outcome())
    }

    /// Sets the move-limit draw in moves by each side (0 turns it off).
    pub fn set_move_limit(&mut self, moves: u32) {
        forward!(self, |g| g.set_move_limit(moves))
    }

    /// The king of the side to move that may not make another quiet move at the current point (Frisian: three
    /// in a row while its side has men), if there is one.
    pub fn barred_king(&self) -> Option<Square> {
        forward!(self, |g| g.barred_king())
    }

    /// The legal moves at the current point: the position's, less those the game's own rules bar (the quiet
    /// moves of a Frisian king that has made three in a row).
    pub fn legal_moves(&self) -> MoveList {
        forward!(self, |g| g.legal_moves())
    }

    /// [`barred_king`](AnyGame::barred_king) after `ply` moves; `None` past the moves played.
    pub fn barred_king_at(&self, ply: usize) -> Option<Square> {
        forward!(self, |g| g.barred_king_at(ply))
    }

    /// Both sides' runs of quiet king moves after `ply` moves (Frisian; empty under other rules); `None` past
    /// the moves played.
    pub fn king_runs_at(&self, ply: usize) -> Option<super::KingRuns> {
        forward!(self, |g| g.king_runs_at(ply))
    }

    /// The draw rules the game is played under (a definition's: its repetitions, its own move limit and its
    /// endings).
    pub fn draw_rules(&self) -> DrawRules {
        forward!(self, |g| g.draw_rules())
    }

    /// The move-limit length in moves by each side.
    pub fn move_limit(&self) -> u32 {
        forward!(self, |g| g.move_limit())
    }

    /// The comment after move number `ply` (0: before the first move).
    pub fn comment(&self, ply: usize) -> Option<&str> {
        forward!(self, |g| g.comment(ply))
    }

    /// Sets or clears the comment after move number `ply`. Returns `false` past the end.
    pub fn set_comment(&mut self, ply: usize, comment: Option<String>) -> bool {
        forward!(self, |g| g.set_comment(ply, comment))
    }

    /// The mark of move number `ply`, if it has one.
    pub fn mark(&self, ply: usize) -> Option<MoveMark> {
        forward!(self, |g| g.mark(ply))
    }

    /// Sets or clears the mark of move number `ply` (1 or more); `false` when there is no such move.
    pub fn set_mark(&mut self, ply: usize, mark: Option<MoveMark>) -> bool {
        forward!(self, |g| g.set_mark(ply, mark))
    }

    /// The tag pairs.
    pub fn tags(&self) -> &Tags {
        forward!(self, |g| g.tags())
    }

    /// The tag pairs, to change.
    pub fn tags_mut(&mut self) -> &mut Tags {
        forward!(self, |g| g.tags_mut())
    }

    /// The result token for an outcome (`1-0`, `2-0`, `1/2-1/2`, `*`...), by the variant's conventions.
    pub fn result_token(&self, outcome: Option<Outcome>) -> &'static str {
        forward!(self, |g| g.result_token(outcome))
    }

    /// The game as PDN, with its `GameType` tag (and a defined variant's definition).
    pub fn to_pdn(&self) -> String {
        forward!(self, |g| write_game(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::{open_game, parse_games};

    #[test]
    fn every_game_type_plays_writes_and_reads_back() {
        let mut types: Vec<GameType> = Variant::ALL.into_iter().map(GameType::standard).collect();
        for size in crowned_rules::ENGLISH_SIZES {
            types.push(GameType::new(Variant::English, Some(size), None).expect("valid"));
        }
        for game_type in types {
            let mut game = AnyGame::new(game_type);
            assert_eq!(game.game_type(), game_type);
            assert_eq!(game.geometry().width, game_type.size);
            for _ in 0..6 {
                let Some(mv) = game.position().legal_moves().first().copied() else {
                    break;
                };
                game.play(&mv).expect("legal");
            }
            let text = game.to_pdn();
            let parsed = parse_games(&text);
            let read = parsed[0].as_ref().expect("its own PDN parses");
            let (back, error) = open_game(read, None);
            assert_eq!(error, None, "{game_type}: {text}");
            assert_eq!(back.game_type(), game_type);
            assert_eq!(back.len(), game.len(), "{game_type}");
            assert_eq!(back.position_at(back.len()), game.position_at(back.len()));
        }
        let few = GameType::new(Variant::English, Some(10), Some(2)).expect("valid");
        let game = AnyGame::new(few);
        assert!(game.is_set_up());
        assert_eq!(game.game_type(), few, "the rows are told by the start");
    }
}
