//! A position under any rule set, chosen at run time.
//!
//! The generator is compiled once per rule set ([`Position<R>`]); the app, the files and the command line choose
//! the rules while running. [`AnyPosition`] is the bridge: one value for a position of any variant and board,
//! whose methods pass to the compiled code of its rule set. Code that is itself generic over the rules reaches
//! the typed position through [`AnyPosition::visit`] (and [`GameType::visit`] to start from nothing), so it is
//! compiled per rule set too and pays for the choice once, not per node.

use std::fmt;

use super::checks::{PositionError, check_playable, check_position, max_pieces};
use super::defined::{self, DefinedBoard, DefinedId};
use super::fen::{FenError, parse_fen, to_fen};
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::notation::{MoveError, MoveText, SquareStyle, Strictness, write_move};
use super::position::Position;
use super::ruleset::{
    Antidraughts, Brazilian, Breakthrough, Canadian, Czech, English, EnglishOn, Frisian, Frysk,
    International, Italian, Pool, RuleSet, Russian, Spanish, Thai,
};
use super::square::{Color, Piece, Role, Square};
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

impl GameType {
    /// Runs generic code for the rule set of this game type (the board size decides among the English boards).
    pub fn visit<V: RulesVisitor>(&self, visitor: V) -> V::Output {
        match self.variant {
            Variant::English => match self.size {
                6 => visitor.visit::<EnglishOn<6>>(),
                10 => visitor.visit::<EnglishOn<10>>(),
                12 => visitor.visit::<EnglishOn<12>>(),
                14 => visitor.visit::<EnglishOn<14>>(),
                // A checked GameType has one of the sizes above or 8.
                _ => visitor.visit::<English>(),
            },
            Variant::International => visitor.visit::<International>(),
            Variant::Russian => visitor.visit::<Russian>(),
            Variant::Brazilian => visitor.visit::<Brazilian>(),
            Variant::Pool => visitor.visit::<Pool>(),
            Variant::Italian => visitor.visit::<Italian>(),
            Variant::Spanish => visitor.visit::<Spanish>(),
            Variant::Czech => visitor.visit::<Czech>(),
            Variant::Thai => visitor.visit::<Thai>(),
            Variant::Canadian => visitor.visit::<Canadian>(),
            Variant::Antidraughts => visitor.visit::<Antidraughts>(),
            Variant::Breakthrough => visitor.visit::<Breakthrough>(),
            Variant::Frisian => visitor.visit::<Frisian>(),
            Variant::Frysk => visitor.visit::<Frysk>(),
            Variant::Defined(id) => visitor.defined(id),
        }
    }
}

/// Runs one expression on the typed position inside, whatever its rule set: the expression is compiled once
/// per arm, which keeps the forwarding methods below to one line each.
macro_rules! forward {
    ($self:expr, |$p:ident| $body:expr, |$d:ident| $defined:expr) => {
        match $self {
            AnyPosition::English($p) => $body,
            AnyPosition::International($p) => $body,
            AnyPosition::Russian($p) => $body,
            AnyPosition::Brazilian($p) => $body,
            AnyPosition::Pool($p) => $body,
            AnyPosition::Italian($p) => $body,
            AnyPosition::Spanish($p) => $body,
            AnyPosition::Czech($p) => $body,
            AnyPosition::Thai($p) => $body,
            AnyPosition::Canadian($p) => $body,
            AnyPosition::Antidraughts($p) => $body,
            AnyPosition::Breakthrough($p) => $body,
            AnyPosition::Frisian($p) => $body,
            AnyPosition::Frysk($p) => $body,
            AnyPosition::English6($p) => $body,
            AnyPosition::English10($p) => $body,
            AnyPosition::English12($p) => $body,
            AnyPosition::English14($p) => $body,
            AnyPosition::Defined($d) => $defined,
        }
    };
}

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
        forward!(self, |p| to_fen(p), |d| defined::to_fen(d))
    }

    /// The variant of the rules.
    pub fn variant(&self) -> Variant {
        fn of<R: RuleSet>(_: &Position<R>) -> Variant {
            R::VARIANT
        }
        forward!(self, |p| of(p), |d| Variant::Defined(d.id()))
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
        match self {
            AnyPosition::Defined(d) => crate::SquareName::defined(square, d.id()),
            _ => crate::SquareName::new(square, self.variant().notation(), self.geometry()),
        }
    }

    /// The board. A defined variant's board has its width and height here, but its squares are its own
    /// ([`DefinedBoard`]): code that maps squares to cells asks it, not the geometry.
    pub fn geometry(&self) -> Geometry {
        fn of<R: RuleSet>(_: &Position<R>) -> Geometry {
            R::GEOMETRY
        }
        forward!(self, |p| of(p), |d| {
            let rules = &d.entry().rules;
            Geometry {
                width: rules.width as u8,
                height: rules.height as u8,
                mirrored: false,
                defined: Some(d.entry().shape),
            }
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        forward!(self, |p| p.side_to_move(), |d| d.side_to_move())
    }

    /// The captures of the piece on `square` that the variant ranks behind another capture, with the rule
    /// that does so in words; `None` when it has none (or the variant lets any capture be chosen).
    pub fn captures_behind(&self, square: Square) -> Option<&'static str> {
        fn behind<R: RuleSet>(pos: &Position<R>, square: Square) -> Option<&'static str> {
            let rule = R::PRECEDENCE.rule()?;
            let legal = pos.legal_moves();
            pos.every_capture()
                .iter()
                .any(|m| m.from() == square && !legal.iter().any(|l| l.same_effect(m)))
                .then_some(rule)
        }
        forward!(self, |p| behind(p, square), |_d| None)
    }

    /// The same pieces with another side to move.
    pub fn with_side_to_move(self, side: Color) -> AnyPosition {
        forward!(self, |p| p.with_side_to_move(side).into(), |d| {
            AnyPosition::Defined(d.with_side_to_move(side))
        })
    }

    /// The piece on a square, if any. A defined variant's kinds are men, or kings when some kind promotes to
    /// them; [`DefinedBoard::occupant`] tells the kind itself.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        forward!(self, |p| p.piece_at(square), |d| d
            .occupant(square)
            .map(|o| defined_piece(d, o)))
    }

    /// Puts a piece on a square (or empties it); `false` if the square is not on this board. On a defined
    /// variant's board a man is its first kind and a king the first kind that others promote to.
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        forward!(self, |p| p.set_piece(square, piece), |d| {
            let kinds = &d.entry().rules.kinds;
            let occupant = match piece {
                None => None,
                Some(Piece {
                    color,
                    role: Role::Man,
                }) => Some((color, 0)),
                Some(Piece {
                    color,
                    role: Role::King,
                }) => match kinds.iter().position(|k| k.is_king) {
                    Some(kind) => Some((color, kind)),
                    None => return false,
                },
            };
            d.set_occupant(square, occupant)
        })
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        forward!(self, |p| p.pieces().collect(), |d| d
            .occupants()
            .map(|(s, o)| (s, defined_piece(d, o)))
            .collect())
    }

    /// How many pieces of a colour and role are on the board.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        forward!(self, |p| p.count(color, role), |d| d
            .occupants()
            .filter(|&(_, o)| defined_piece(d, o) == Piece { color, role })
            .count()
            as u32)
    }

    /// Every legal move, routes with the same effect merged.
    pub fn legal_moves(&self) -> MoveList {
        forward!(self, |p| p.legal_moves(), |d| d.legal_moves())
    }

    /// Every legal move, one per order of capture.
    pub fn legal_moves_with_duplicates(&self) -> MoveList {
        forward!(self, |p| p.legal_moves_with_duplicates(), |d| d
            .legal_moves())
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        forward!(self, |p| p.must_capture(), |d| d.must_capture())
    }

    /// Whether the side to move has lost: no pieces or no legal move.
    pub fn is_lost(&self) -> bool {
        forward!(self, |p| p.is_lost(), |d| d.legal_moves().is_empty())
    }

    /// The position after a legal move.
    pub fn play(&self, mv: &Move) -> AnyPosition {
        forward!(self, |p| p.play(mv).into(), |d| AnyPosition::Defined(
            d.play(mv)
        ))
    }

    /// The legal move a move text stands for ([`MoveText::find`]).
    pub fn find_move(&self, text: &MoveText, strictness: Strictness) -> Result<Move, MoveError> {
        forward!(self, |p| text.find(p, strictness), |d| {
            defined::parse_move(d, text.text())
        })
    }

    /// The legal move typed as `text` (`11-15`, `c3xe5`, a full or short capture route), read on this board.
    pub fn parse_move(&self, text: &str, strictness: Strictness) -> Result<Move, MoveError> {
        if let AnyPosition::Defined(d) = self {
            return defined::parse_move(d, text);
        }
        MoveText::parse(text, self.geometry()).and_then(|t| self.find_move(&t, strictness))
    }

    /// A legal move written as players write it ([`write_move`]).
    pub fn write_move(&self, mv: &Move, style: SquareStyle) -> String {
        forward!(self, |p| write_move(p, mv, style), |d| d.write_move(mv))
    }

    /// Whether the position is legal under its rules ([`check_position`]). Any placement of a defined
    /// variant's pieces on its squares is.
    pub fn check(&self) -> Result<(), PositionError> {
        forward!(self, |p| check_position(p), |_d| Ok(()))
    }

    /// Whether a game can start from the position ([`check_playable`]).
    pub fn check_playable(&self) -> Result<(), PositionError> {
        forward!(self, |p| check_playable(p), |_d| Ok(()))
    }

    /// The most pieces a side may have under its rules ([`max_pieces`]).
    pub fn max_pieces(&self) -> u32 {
        fn of<R: RuleSet>(_: &Position<R>) -> u32 {
            max_pieces::<R>()
        }
        forward!(self, |p| of(p), |d| d.entry().square_count() as u32)
    }
}

/// A defined variant's occupant as a man or king: a king when some kind promotes to its kind.
fn defined_piece(board: &DefinedBoard, (color, kind): (Color, usize)) -> Piece {
    let king = board
        .entry()
        .rules
        .kinds
        .get(kind)
        .is_some_and(|k| k.is_king);
    Piece::new(color, if king { Role::King } else { Role::Man })
}

impl From<DefinedBoard> for AnyPosition {
    fn from(board: DefinedBoard) -> AnyPosition {
        AnyPosition::Defined(board)
    }
}

impl fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        forward!(self, |p| fmt::Debug::fmt(p, f), |d| fmt::Debug::fmt(d, f))
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        forward!(self, |p| fmt::Display::fmt(p, f), |d| fmt::Display::fmt(
            d, f
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
