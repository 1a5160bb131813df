//! A position under any rule set, chosen at run time.
//!
//! The generator is compiled once per rule set ([`Position<R>`]); the app, the files and the command line choose
//! the rules while running. [`AnyPosition`] is the bridge: one value for a position of any variant and board,
//! whose methods pass to the compiled code of its rule set. Code that is itself generic over the rules reaches
//! the typed position through [`AnyPosition::visit`] (and [`GameType::visit`] to start from nothing), so it is
//! compiled per rule set too and pays for the choice once, not per node.

use std::fmt;

use super::checks::PositionError;
use super::defined::{self, DefinedBoard, DefinedId};
use super::fen::{FenError, parse_fen};
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::notation::{MoveError, MoveText, SquareStyle, Strictness};
use super::perft::Duplicates;
use super::position::Position;
use super::ruleset::{English, RuleSet};
use super::square::{Color, Piece, Role, Square};
use super::surface::GamePosition;
use super::variant::{GameType, Variant};

/// A rule set the program plays, with its place in [`AnyPosition`].
pub trait Playable: RuleSet {
    /// The position as a value of any rule set.
    fn wrap(position: Position<Self>) -> AnyPosition;
    /// The position, if it is one of this rule set.
    fn unwrap(position: &AnyPosition) -> Option<Position<Self>>;
}

/// Code generic over the rule set, run on a position of the rule set chosen at run time.
pub trait PositionVisitor {
    /// What the code gives back.
    type Output;
    /// Runs the code on the typed position.
    fn visit<R: Playable>(self, position: &Position<R>) -> Self::Output;
    /// Runs the code on a position of a defined variant, which has no compiled rule set.
    fn defined(self, board: &DefinedBoard) -> Self::Output;
}

/// Code generic over the rule set, run for the rule set chosen at run time.
pub trait RulesVisitor {
    /// What the code gives back.
    type Output;
    /// Runs the code for the rule set `R`.
    fn visit<R: Playable>(self) -> Self::Output;
    /// Runs the code for a defined variant, which has no compiled rule set.
    fn defined(self, id: DefinedId) -> Self::Output;
}

macro_rules! any_position {
    ($($name:ident => $rules:ty),* $(,)?) => {
        /// A position under any of the rule sets this program plays.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum AnyPosition {
            $($name(Position<$rules>),)*
            /// A position of a variant defined by its players, played by the general generator.
            Defined(DefinedBoard),
        }

        $(
            impl Playable for $rules {
                fn wrap(position: Position<Self>) -> AnyPosition {
                    AnyPosition::$name(position)
                }
                fn unwrap(position: &AnyPosition) -> Option<Position<Self>> {
                    match position {
                        AnyPosition::$name(p) => Some(*p),
                        _ => None,
                    }
                }
            }

            impl From<Position<$rules>> for AnyPosition {
                fn from(position: Position<$rules>) -> AnyPosition {
                    AnyPosition::$name(position)
                }
            }
        )*

        /// Runs one expression on the position inside, whatever its rules (`|p| body`: the expression is compiled
        /// once per arm, which keeps the forwarding methods below to one line each), or one on a built-in rule
        /// set's position and another on a defined one (`|p| body, |d| defined`).
        macro_rules! forward {
            ($self:expr, |$p:ident| $body:expr) => {
                match $self {
                    $(AnyPosition::$name($p) => $body,)*
                    AnyPosition::Defined($p) => $body,
                }
            };
            ($self:expr, |$p:ident| $body:expr, |$d:ident| $defined:expr) => {
                match $self {
                    $(AnyPosition::$name($p) => $body,)*
                    AnyPosition::Defined($d) => $defined,
                }
            };
        }

        impl GameType {
            /// Runs generic code for the rule set of this game type: the one of its variant and board size (the
            /// size decides among the English boards), found in the one list of rule sets.
            pub fn visit<V: RulesVisitor>(&self, visitor: V) -> V::Output {
                if let Variant::Defined(id) = self.variant {
                    return visitor.defined(id);
                }
                $(
                    if <$rules as RuleSet>::VARIANT == self.variant
                        && <$rules as RuleSet>::GEOMETRY.width == self.size
                    {
                        return visitor.visit::<$rules>();
                    }
                )*
                // A checked game type is one of the list's. Any other is played on its variant's first board in
                // the list (English draughts' is 8x8).
                $(
                    if <$rules as RuleSet>::VARIANT == self.variant {
                        return visitor.visit::<$rules>();
                    }
                )*
                visitor.visit::<English>()
            }
        }

        impl AnyPosition {
            /// Runs generic code on the typed position.
            pub fn visit<V: PositionVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(AnyPosition::$name(p) => visitor.visit(p),)*
                    AnyPosition::Defined(board) => visitor.defined(board),
                }
            }
        }
    };
}

/// Calls the macro `$callback` with every rule set this program plays, as `Name => Type` pairs: the one list
/// from which [`AnyPosition`] here, the game's `AnyGame` and the engine's searchers are built, so that a rule set
/// added here reaches all three.
#[macro_export]
macro_rules! playable_rule_sets {
    ($callback:ident) => {
        $callback! {
            English => $crate::English,
            International => $crate::International,
            Russian => $crate::Russian,
            Brazilian => $crate::Brazilian,
            Pool => $crate::Pool,
            Italian => $crate::Italian,
            Spanish => $crate::Spanish,
            Czech => $crate::Czech,
            Thai => $crate::Thai,
            Canadian => $crate::Canadian,
            Antidraughts => $crate::Antidraughts,
            Breakthrough => $crate::Breakthrough,
            Frisian => $crate::Frisian,
            Frysk => $crate::Frysk,
            English6 => $crate::EnglishOn<6>,
            English10 => $crate::EnglishOn<10>,
            English12 => $crate::EnglishOn<12>,
            English14 => $crate::EnglishOn<14>,
        }
    };
}

playable_rule_sets!(any_position);

struct Start {
    rows: u32,
}

impl RulesVisitor for Start {
    type Output = AnyPosition;
    fn visit<R: Playable>(self) -> AnyPosition {
        R::wrap(Position::<R>::start_with_rows(self.rows))
    }
    fn defined(self, id: DefinedId) -> AnyPosition {
        AnyPosition::Defined(DefinedBoard::start(id))
    }
}

struct Empty(Color);

impl RulesVisitor for Empty {
    type Output = AnyPosition;
    fn visit<R: Playable>(self) -> AnyPosition {
        R::wrap(Position::<R>::empty(self.0))
    }
    fn defined(self, id: DefinedId) -> AnyPosition {
        AnyPosition::Defined(DefinedBoard::empty(id, self.0))
    }
}

struct Fen<'a>(&'a str);

impl RulesVisitor for Fen<'_> {
    type Output = Result<AnyPosition, FenError>;
    fn visit<R: Playable>(self) -> Self::Output {
        parse_fen::<R>(self.0).map(R::wrap)
    }
    fn defined(self, id: DefinedId) -> Self::Output {
        defined::from_fen(id, self.0).map(AnyPosition::Defined)
    }
}

impl AnyPosition {
    /// The start position of a game type, with its rows of men.
    pub fn start(game_type: GameType) -> AnyPosition {
        if let Variant::Defined(id) = game_type.variant {
            return AnyPosition::Defined(DefinedBoard::start(id));
        }
        game_type.visit(Start {
            rows: u32::from(game_type.rows),
        })
    }

    /// An empty board of a game type.
    pub fn empty(game_type: GameType, side: Color) -> AnyPosition {
        if let Variant::Defined(id) = game_type.variant {
            return AnyPosition::Defined(DefinedBoard::empty(id, side));
        }
        game_type.visit(Empty(side))
    }

    /// Reads a PDN FEN under a game type's rules.
    pub fn from_fen(game_type: GameType, text: &str) -> Result<AnyPosition, FenError> {
        if let Variant::Defined(id) = game_type.variant {
            return defined::from_fen(id, text).map(AnyPosition::Defined);
        }
        game_type.visit(Fen(text))
    }

    /// The position as PDN FEN.
    pub fn to_fen(&self) -> String {
        forward!(self, |p| GamePosition::to_fen(p))
    }

    /// The variant of the rules.
    pub fn variant(&self) -> Variant {
        forward!(self, |p| GamePosition::variant(p))
    }

    /// The position of a defined variant, if it is one.
    pub fn defined(&self) -> Option<&DefinedBoard> {
        match self {
            AnyPosition::Defined(board) => Some(board),
            _ => None,
        }
    }

    /// `square` as the variant's own notation names it (`16` in English, `c3` in Russian).
    pub fn square_name(&self, square: Square) -> crate::SquareName {
        forward!(self, |p| GamePosition::square_name(p, square))
    }

    /// The board ([`GamePosition::geometry`]).
    pub fn geometry(&self) -> Geometry {
        forward!(self, |p| GamePosition::geometry(p))
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        forward!(self, |p| GamePosition::side_to_move(p))
    }

    /// The captures of the piece on `square` that the variant ranks behind another capture, with the rule
    /// that does so in words; `None` when it has none (or the variant lets any capture be chosen).
    pub fn captures_behind(&self, square: Square) -> Option<&'static str> {
        forward!(self, |p| GamePosition::captures_behind(p, square))
    }

    /// The same pieces with another side to move.
    pub fn with_side_to_move(self, side: Color) -> AnyPosition {
        forward!(self, |p| AnyPosition::from(
            GamePosition::with_side_to_move(p, side)
        ))
    }

    /// The piece on a square, if any ([`GamePosition::piece_at`]).
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        forward!(self, |p| GamePosition::piece_at(p, square))
    }

    /// Puts a piece on a square (or empties it); `false` if the square is not on this board
    /// ([`GamePosition::set_piece`]).
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        forward!(self, |p| GamePosition::set_piece(p, square, piece))
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        forward!(self, |p| GamePosition::pieces(p).collect())
    }

    /// How many pieces of a colour and role are on the board.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        forward!(self, |p| GamePosition::count(p, color, role))
    }

    /// Every legal move, routes with the same effect merged.
    pub fn legal_moves(&self) -> MoveList {
        forward!(self, |p| GamePosition::legal_moves(p))
    }

    /// Every legal move, one per order of capture.
    pub fn legal_moves_with_duplicates(&self) -> MoveList {
        forward!(self, |p| GamePosition::legal_moves_with_duplicates(p))
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        forward!(self, |p| GamePosition::must_capture(p))
    }

    /// Whether the side to move has lost: no pieces or no legal move.
    pub fn is_lost(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// The position after a legal move.
    pub fn play(&self, mv: &Move) -> AnyPosition {
        forward!(self, |p| AnyPosition::from(GamePosition::play(p, mv)))
    }

    /// The legal move a move text stands for ([`MoveText::find`]).
    pub fn find_move(&self, text: &MoveText, strictness: Strictness) -> Result<Move, MoveError> {
        forward!(self, |p| text.find(p, strictness), |d| defined::parse_move(
            d,
            text.text()
        ))
    }

    /// The legal move typed as `text` (`11-15`, `c3xe5`, a full or short capture route), read on this board.
    pub fn parse_move(&self, text: &str, strictness: Strictness) -> Result<Move, MoveError> {
        forward!(self, |p| GamePosition::parse_move(p, text, strictness))
    }

    /// A legal move written as players write it ([`write_move`](crate::write_move)).
    pub fn write_move(&self, mv: &Move, style: SquareStyle) -> String {
        forward!(self, |p| GamePosition::write_move(p, mv, style))
    }

    /// Whether the position is legal under its rules ([`check_position`](crate::check_position)). Any
    /// placement of a defined variant's pieces on its squares is.
    pub fn check(&self) -> Result<(), PositionError> {
        forward!(self, |p| GamePosition::check(p))
    }

    /// Whether a game can start from the position ([`check_playable`](crate::check_playable)).
    pub fn check_playable(&self) -> Result<(), PositionError> {
        forward!(self, |p| GamePosition::check_playable(p))
    }

    /// The most pieces a side may have under its rules ([`max_pieces`](crate::max_pieces)).
    pub fn max_pieces(&self) -> u32 {
        forward!(self, |p| GamePosition::max_pieces(p))
    }
}

/// A position of any rules presents the same surface as the typed one inside, so that code written against
/// [`GamePosition`] takes either.
impl GamePosition for AnyPosition {
    fn variant(&self) -> Variant {
        AnyPosition::variant(self)
    }
    fn geometry(&self) -> Geometry {
        AnyPosition::geometry(self)
    }
    fn game_type(&self) -> GameType {
        forward!(self, |p| GamePosition::game_type(p))
    }
    fn standard_start(&self) -> Self {
        forward!(self, |p| AnyPosition::from(GamePosition::standard_start(p)))
    }
    fn square_name(&self, square: Square) -> crate::SquareName {
        AnyPosition::square_name(self, square)
    }
    fn first_to_move(&self) -> Color {
        forward!(self, |p| GamePosition::first_to_move(p))
    }
    fn side_to_move(&self) -> Color {
        AnyPosition::side_to_move(self)
    }
    fn with_side_to_move(self, side: Color) -> Self {
        AnyPosition::with_side_to_move(self, side)
    }
    fn piece_at(&self, square: Square) -> Option<Piece> {
        AnyPosition::piece_at(self, square)
    }
    fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        AnyPosition::set_piece(self, square, piece)
    }
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        AnyPosition::pieces(self).into_iter()
    }
    fn count(&self, color: Color, role: Role) -> u32 {
        AnyPosition::count(self, color, role)
    }
    fn legal_moves(&self) -> MoveList {
        AnyPosition::legal_moves(self)
    }
    fn legal_moves_with_duplicates(&self) -> MoveList {
        AnyPosition::legal_moves_with_duplicates(self)
    }
    fn must_capture(&self) -> bool {
        AnyPosition::must_capture(self)
    }
    fn play(&self, mv: &Move) -> Self {
        AnyPosition::play(self, mv)
    }
    fn is_progress(&self, mv: &Move) -> bool {
        forward!(self, |p| GamePosition::is_progress(p, mv))
    }
    fn crowned_winner(&self) -> Option<Color> {
        forward!(self, |p| GamePosition::crowned_winner(p))
    }
    fn winner_without_moves(&self) -> Color {
        forward!(self, |p| GamePosition::winner_without_moves(p))
    }
    fn lone_man_loser(&self) -> Option<Color> {
        forward!(self, |p| GamePosition::lone_man_loser(p))
    }
    fn captures_behind(&self, square: Square) -> Option<&'static str> {
        AnyPosition::captures_behind(self, square)
    }
    fn parse_move(&self, text: &str, strictness: Strictness) -> Result<Move, MoveError> {
        AnyPosition::parse_move(self, text, strictness)
    }
    fn write_move(&self, mv: &Move, style: SquareStyle) -> String {
        AnyPosition::write_move(self, mv, style)
    }
    fn write_route(&self, mv: &Move, style: SquareStyle) -> String {
        forward!(self, |p| GamePosition::write_route(p, mv, style))
    }
    fn perft_moves(&self, duplicates: Duplicates) -> MoveList {
        forward!(self, |p| GamePosition::perft_moves(p, duplicates))
    }
    fn perft_by_depth(&self, depth: u32, duplicates: Duplicates) -> Vec<u64> {
        forward!(self, |p| GamePosition::perft_by_depth(p, depth, duplicates))
    }
    fn to_fen(&self) -> String {
        AnyPosition::to_fen(self)
    }
    fn read_fen(&self, text: &str) -> Result<Self, FenError> {
        AnyPosition::from_fen(self.game_type(), text)
    }
    fn check(&self) -> Result<(), PositionError> {
        AnyPosition::check(self)
    }
    fn check_playable(&self) -> Result<(), PositionError> {
        AnyPosition::check_playable(self)
    }
    fn max_pieces(&self) -> u32 {
        AnyPosition::max_pieces(self)
    }
}

impl From<DefinedBoard> for AnyPosition {
    fn from(board: DefinedBoard) -> AnyPosition {
        AnyPosition::Defined(board)
    }
}

impl fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        forward!(self, |p| fmt::Debug::fmt(p, f))
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        forward!(self, |p| fmt::Display::fmt(p, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Canadian, EnglishOn};

    #[test]
    fn every_game_type_starts_with_its_own_board_and_men() {
        for variant in Variant::ALL {
            let game_type = GameType::standard(variant);
            let start = AnyPosition::start(game_type);
            assert_eq!(start.variant(), variant);
            assert_eq!(start.geometry().width, game_type.size);
            assert_eq!(start.side_to_move(), variant.first_to_move());
            let per_side = u32::from(game_type.rows) * u32::from(game_type.size) / 2;
            assert_eq!(start.count(Color::White, Role::Man), per_side, "{variant}");
            assert_eq!(start.count(Color::Black, Role::Man), per_side, "{variant}");
            assert!(!start.legal_moves().is_empty());
            let back = AnyPosition::from_fen(game_type, &start.to_fen()).expect("own FEN");
            assert_eq!(back, start);
        }
        for size in crate::ENGLISH_SIZES {
            for rows in 1..size / 2 {
                let game_type =
                    GameType::new(Variant::English, Some(size), Some(rows)).expect("valid");
                let start = AnyPosition::start(game_type);
                assert_eq!(start.geometry().width, size);
                assert_eq!(
                    start.count(Color::Black, Role::Man),
                    u32::from(rows) * u32::from(size) / 2
                );
                assert!(!start.legal_moves().is_empty());
            }
        }
    }

    #[test]
    fn a_position_stays_small_enough_to_copy() {
        // A defined board is one byte per square for up to 128 squares, plus its id: the largest arm. Positions
        // are copied everywhere, so their size is held here.
        let size = std::mem::size_of::<AnyPosition>();
        println!(
            "AnyPosition: {size} bytes, DefinedBoard: {}, the largest built-in position: {}",
            std::mem::size_of::<DefinedBoard>(),
            std::mem::size_of::<Position<EnglishOn<14>>>()
        );
        assert!(size <= 160, "{size} bytes");
        assert!(std::mem::size_of::<Variant>() <= 16);
    }

    #[test]
    fn visiting_reaches_the_typed_position() {
        struct Squares;
        impl PositionVisitor for Squares {
            type Output = u8;
            fn visit<R: Playable>(self, _: &Position<R>) -> u8 {
                R::GEOMETRY.squares()
            }
            fn defined(self, board: &DefinedBoard) -> u8 {
                board.entry().square_count() as u8
            }
        }
        let canadian = AnyPosition::start(GameType::standard(Variant::Canadian));
        assert_eq!(canadian.visit(Squares), 72);
        let first = canadian.legal_moves()[0];
        let after = canadian.play(&first);
        assert_eq!(after.side_to_move(), Color::Black);
        assert_eq!(
            Canadian::unwrap(&after).map(|p| p.side_to_move()),
            Some(Color::Black)
        );
        assert_eq!(English::unwrap(&after), None);
    }
}
