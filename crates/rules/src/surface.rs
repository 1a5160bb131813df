//! The one surface of the rules: what a game, a record, a screen or a file needs of a position, whatever its
//! rules. A built-in rule set's [`Position<R>`] (a bitboard generator compiled for that rule set), a defined
//! variant's [`DefinedBoard`] (the general generator run on a definition) and a position of rules chosen at run
//! time ([`AnyPosition`](crate::AnyPosition)) all present it, so that code written against [`GamePosition`]
//! plays every variant, built in or defined, without an arm for either.
//!
//! [`Rules`] names the rules themselves, as a type: each built-in rule set, and [`Defined`] for every variant
//! its players define (the definition travels inside the position). A game is generic over it.

use std::fmt::Debug;
use std::hash::Hash;

use super::checks::{PositionError, check_playable, check_position, max_pieces};
use super::defined::{self, DefinedBoard, Occupant};
use super::fen::{FenError, parse_fen, to_fen};
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::notation::{
    MoveError, MoveText, SquareName, SquareStyle, Strictness, full_route, write_move,
};
use super::perft::{Duplicates, perft_by_depth};
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Color, Piece, Role, Square};
use super::variant::{GameType, Variant};

/// A position under some rules: the surface every variant presents, built in or defined.
pub trait GamePosition: Copy + Debug + Eq + Hash + Send + Sync + 'static {
    /// The variant of the rules.
    fn variant(&self) -> Variant;
    /// The board. A defined variant's board has its width and height here, but its squares are its own
    /// ([`DefinedBoard`]): code that maps squares to cells asks it, not the geometry.
    fn geometry(&self) -> Geometry;
    /// The game type of the rules, with their usual board and rows of men.
    fn game_type(&self) -> GameType;
    /// The position a game of these rules starts from, unless it is set up.
    fn standard_start(&self) -> Self;
    /// `square` as the variant's own notation names it (`16` in English, `c3` in Russian).
    fn square_name(&self, square: Square) -> SquareName;
    /// The side that makes the first move of a game under these rules.
    fn first_to_move(&self) -> Color {
        self.variant().first_to_move()
    }
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The same pieces with another side to move.
    fn with_side_to_move(self, side: Color) -> Self;
    /// The piece on a square, if any. A defined variant's kinds are men, or kings when some kind promotes to
    /// them.
    fn piece_at(&self, square: Square) -> Option<Piece>;
    /// Puts a piece on a square (or empties it); `false` if the square is not on this board. On a defined
    /// variant's board a man is its first kind and a king the first kind that others promote to.
    fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool;
    /// Every occupied square with its piece, in square order.
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_;
    /// How many pieces of a colour and role are on the board.
    fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces()
            .filter(|&(_, p)| p == Piece::new(color, role))
            .count() as u32
    }
    /// Every legal move, routes with the same effect merged.
    fn legal_moves(&self) -> MoveList;
    /// Every legal move, one per order of capture (where the rules tell them apart).
    fn legal_moves_with_duplicates(&self) -> MoveList {
        self.legal_moves()
    }
    /// Whether the side to move must capture.
    fn must_capture(&self) -> bool;
    /// The position after a legal move.
    fn play(&self, mv: &Move) -> Self;
    /// Whether `mv`, played from here, is progress that no later position can undo: a capture, or a move by a
    /// piece that may still be crowned. The move-limit draw counts the moves since the last one.
    fn is_progress(&self, mv: &Move) -> bool {
        mv.is_capture()
            || self
                .piece_at(mv.from())
                .is_some_and(|p| p.role == Role::Man)
    }
    /// The winner the rules name before any move is looked for: the side that crowned first where that wins
    /// (breakthrough, a definition's `promotion_wins`). `None` elsewhere, and while nobody has.
    fn crowned_winner(&self) -> Option<Color>;
    /// Who wins when the side to move has no legal move: the other side, or under a losing goal itself.
    fn winner_without_moves(&self) -> Color;
    /// The side that has lost by being left with one man against a king, where the rules say so (Turkish
    /// draughts); `None` elsewhere.
    fn lone_man_loser(&self) -> Option<Color> {
        None
    }
    /// The captures of the piece on `square` that the rules rank behind another capture, with the rule that
    /// does so in words; `None` when it has none (or any capture may be chosen).
    fn captures_behind(&self, square: Square) -> Option<&'static str> {
        let _ = square;
        None
    }
    /// The legal move typed as `text` (`11-15`, `c3xe5`, a full or short capture route), read on this board.
    fn parse_move(&self, text: &str, strictness: Strictness) -> Result<Move, MoveError>;
    /// A legal move written as players write it.
    fn write_move(&self, mv: &Move, style: SquareStyle) -> String;
    /// A legal move written with every square it lands on (`9x18x27`), which tells apart routes that take the
    /// same pieces to the same square. Where moves are always written so, [`GamePosition::write_move`].
    fn write_route(&self, mv: &Move, style: SquareStyle) -> String {
        self.write_move(mv, style)
    }
    /// The moves perft walks from here: none once the rules have named a winner
    /// ([`GamePosition::crowned_winner`]), else every legal move, each order of capture apart with
    /// [`Duplicates::Keep`].
    fn perft_moves(&self, duplicates: Duplicates) -> MoveList {
        if self.crowned_winner().is_some() {
            return MoveList::new();
        }
        match duplicates {
            Duplicates::Keep => self.legal_moves_with_duplicates(),
            Duplicates::Merge => self.legal_moves(),
        }
    }
    /// The number of positions at every depth from 1 to `depth` below this one: entry `i` is perft `i + 1`,
    /// over the moves of [`GamePosition::perft_moves`]. Each rule set counts with its own generator
    /// ([`perft_by_depth`](crate::perft_by_depth) for the built-in ones, one walk that never builds the positions
    /// one ply above the leaves); [`perft_by_playing`](crate::perft_by_playing) is the plain count they agree with.
    fn perft_by_depth(&self, depth: u32, duplicates: Duplicates) -> Vec<u64>;
    /// The position as PDN FEN.
    fn to_fen(&self) -> String;
    /// A position under the same rules (the same definition, for a defined variant) read from PDN FEN: what a
    /// file's `FEN` tag sets up for a game of these rules.
    fn read_fen(&self, text: &str) -> Result<Self, FenError>;
    /// Whether the position is legal under its rules ([`check_position`]).
    fn check(&self) -> Result<(), PositionError> {
        Ok(())
    }
    /// Whether a game can start from the position ([`check_playable`]).
    fn check_playable(&self) -> Result<(), PositionError> {
        Ok(())
    }
    /// The most pieces a side may have under its rules.
    fn max_pieces(&self) -> u32;
}

/// Rules as a type: each built-in rule set, and [`Defined`] for the variants players define. A game of these
/// rules holds positions of [`Rules::Position`].
pub trait Rules: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// A position under these rules.
    type Position: GamePosition;
}

impl<R: RuleSet> Rules for R {
    type Position = Position<R>;
}

/// The rules of every variant its players define: which one travels inside each [`DefinedBoard`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Defined;

impl Rules for Defined {
    type Position = DefinedBoard;
}

impl<R: RuleSet> GamePosition for Position<R> {
    fn variant(&self) -> Variant {
        R::VARIANT
    }

    fn geometry(&self) -> Geometry {
        R::GEOMETRY
    }

    fn game_type(&self) -> GameType {
        GameType {
            variant: R::VARIANT,
            size: R::GEOMETRY.width,
            rows: u8::try_from(R::START_ROWS).unwrap_or(u8::MAX),
        }
    }

    fn standard_start(&self) -> Self {
        Position::start()
    }

    fn square_name(&self, square: Square) -> SquareName {
        SquareName::new(square, R::VARIANT.notation(), R::GEOMETRY)
    }

    fn first_to_move(&self) -> Color {
        R::FIRST_TO_MOVE
    }

    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    fn with_side_to_move(self, side: Color) -> Self {
        Position::with_side_to_move(self, side)
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        Position::piece_at(self, square)
    }

    fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        Position::set_piece(self, square, piece)
    }

    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Position::pieces(self)
    }

    fn count(&self, color: Color, role: Role) -> u32 {
        Position::count(self, color, role)
    }

    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }

    fn legal_moves_with_duplicates(&self) -> MoveList {
        Position::legal_moves_with_duplicates(self)
    }

    fn must_capture(&self) -> bool {
        Position::must_capture(self)
    }

    fn play(&self, mv: &Move) -> Self {
        Position::play(self, mv)
    }

    fn crowned_winner(&self) -> Option<Color> {
        Position::crowned_winner(self)
    }

    fn winner_without_moves(&self) -> Color {
        Position::winner_without_moves(self)
    }

    fn captures_behind(&self, square: Square) -> Option<&'static str> {
        let rule = R::PRECEDENCE.rule()?;
        let legal = self.legal_moves();
        self.every_capture()
            .iter()
            .any(|m| m.from() == square && !legal.iter().any(|l| l.same_effect(m)))
            .then_some(rule)
    }

    fn parse_move(&self, text: &str, strictness: Strictness) -> Result<Move, MoveError> {
        MoveText::parse(text, R::GEOMETRY)?.find(self, strictness)
    }

    fn write_move(&self, mv: &Move, style: SquareStyle) -> String {
        write_move(self, mv, style)
    }

    fn write_route(&self, mv: &Move, style: SquareStyle) -> String {
        full_route(mv, style, R::GEOMETRY)
    }

    fn perft_by_depth(&self, depth: u32, duplicates: Duplicates) -> Vec<u64> {
        perft_by_depth(self, depth, duplicates)
    }

    fn to_fen(&self) -> String {
        to_fen(self)
    }

    fn read_fen(&self, text: &str) -> Result<Self, FenError> {
        parse_fen::<R>(text)
    }

    fn check(&self) -> Result<(), PositionError> {
        check_position(self)
    }

    fn check_playable(&self) -> Result<(), PositionError> {
        check_playable(self)
    }

    fn max_pieces(&self) -> u32 {
        max_pieces::<R>()
    }
}

impl DefinedBoard {
    /// An occupant as a man or king: a king when some kind promotes to its kind.
    fn piece_of(&self, (color, kind): Occupant) -> Piece {
        let king = self
            .entry()
            .rules
            .kinds
            .get(kind)
            .is_some_and(|k| k.is_king);
        Piece::new(color, if king { Role::King } else { Role::Man })
    }
}

impl GamePosition for DefinedBoard {
    fn variant(&self) -> Variant {
        Variant::Defined(self.id())
    }

    fn geometry(&self) -> Geometry {
        let entry = self.entry();
        Geometry {
            width: entry.rules.width as u8,
            height: entry.rules.height as u8,
            mirrored: false,
            defined: Some(entry.shape),
        }
    }

    fn game_type(&self) -> GameType {
        GameType::standard(Variant::Defined(self.id()))
    }

    fn standard_start(&self) -> Self {
        DefinedBoard::start(self.id())
    }

    fn square_name(&self, square: Square) -> SquareName {
        SquareName::defined(square, self.id())
    }

    fn first_to_move(&self) -> Color {
        self.entry().rules.first
    }

    fn side_to_move(&self) -> Color {
        DefinedBoard::side_to_move(self)
    }

    fn with_side_to_move(self, side: Color) -> Self {
        DefinedBoard::with_side_to_move(self, side)
    }

    fn piece_at(&self, square: Square) -> Option<Piece> {
        self.occupant(square).map(|o| self.piece_of(o))
    }

    fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        let occupant = match piece {
            None => None,
            Some(Piece {
                color,
                role: Role::Man,
            }) => Some((color, 0)),
            Some(Piece {
                color,
                role: Role::King,
            }) => match self.entry().rules.kinds.iter().position(|k| k.is_king) {
                Some(kind) => Some((color, kind)),
                None => return false,
            },
        };
        self.set_occupant(square, occupant)
    }

    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupants().map(|(s, o)| (s, self.piece_of(o)))
    }

    fn legal_moves(&self) -> MoveList {
        DefinedBoard::legal_moves(self)
    }

    fn must_capture(&self) -> bool {
        DefinedBoard::must_capture(self)
    }

    fn play(&self, mv: &Move) -> Self {
        DefinedBoard::play(self, mv)
    }

    /// A capture, or a move by a piece whose kind may still be promoted (a definition's men may move sideways
    /// or back, so this is what cannot be undone).
    fn is_progress(&self, mv: &Move) -> bool {
        let kinds = &self.entry().rules.kinds;
        mv.is_capture()
            || self
                .occupant(mv.from())
                .is_some_and(|(_, kind)| kinds.get(kind).is_some_and(|k| k.promotion.is_some()))
    }

    fn crowned_winner(&self) -> Option<Color> {
        self.to_position().promoted_winner(&self.entry().rules)
    }

    fn winner_without_moves(&self) -> Color {
        match self.entry().rules.no_moves {
            defined::NoMoves::Loses => self.side_to_move().opponent(),
            defined::NoMoves::Wins => self.side_to_move(),
        }
    }

    fn lone_man_loser(&self) -> Option<Color> {
        self.to_position().lone_man_loser(&self.entry().rules)
    }

    fn parse_move(&self, text: &str, _: Strictness) -> Result<Move, MoveError> {
        defined::parse_move(self, text)
    }

    /// Coordinates, whatever the style: a defined board's squares have no numbers of their own.
    fn write_move(&self, mv: &Move, _: SquareStyle) -> String {
        DefinedBoard::write_move(self, mv)
    }

    fn to_fen(&self) -> String {
        defined::to_fen(self)
    }

    fn read_fen(&self, text: &str) -> Result<Self, FenError> {
        defined::from_fen(self.id(), text)
    }

    /// Counted by the definition's generator (the general one, or Turkish draughts' fast one), one walk a depth:
    /// it has no walk that counts every depth at once. Its moves are one per route.
    fn perft_by_depth(&self, depth: u32, _: Duplicates) -> Vec<u64> {
        (1..=depth).map(|d| self.perft(d)).collect()
    }

    fn max_pieces(&self) -> u32 {
        self.entry().square_count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defined::{BUILTINS, load_builtin, register};
    use crate::perft_by_playing;
    use crate::{Antidraughts, AnyPosition, English, parse_fen};

    /// A Turkish board with pieces given as (side, kind, square), `side` to move.
    fn turkish(pieces: &[(Color, usize, &str)], side: Color) -> DefinedBoard {
        let id = load_builtin("turkish").expect("built in").expect("loads");
        let mut board = DefinedBoard::empty(id, side);
        for &(color, kind, name) in pieces {
            let square = board.entry().square_named(name).expect("a square");
            assert!(board.set_occupant(Square::from_index(square), Some((color, kind))));
        }
        board
    }

    #[test]
    fn a_defined_board_presents_its_definitions_rules() {
        let board = turkish(
            &[(Color::White, 0, "d4"), (Color::Black, 1, "h8")],
            Color::White,
        );
        assert_eq!(board.standard_start(), DefinedBoard::start(board.id()));
        assert_eq!(board.game_type().variant, Variant::Defined(board.id()));
        assert_eq!(board.first_to_move(), Color::White);
        assert_eq!(board.count(Color::White, Role::Man), 1);
        assert_eq!(board.count(Color::Black, Role::King), 1);
        // A man's sideways step is progress (it may still be crowned); a king's quiet move is not.
        let man = board.legal_moves();
        assert!(!man.is_empty());
        assert!(man.iter().all(|m| board.is_progress(m)));
        let king_to_move = board.with_side_to_move(Color::Black);
        let quiet = king_to_move
            .legal_moves()
            .into_iter()
            .find(|m| !m.is_capture())
            .expect("a quiet king move");
        assert!(!king_to_move.is_progress(&quiet));
        // A lone man against a king has lost, and the board says so whoever is to move.
        assert_eq!(board.lone_man_loser(), Some(Color::White));
        assert_eq!(king_to_move.lone_man_loser(), Some(Color::White));
        // Every move written reads back as itself.
        for mv in &man {
            let text = GamePosition::write_move(&board, mv, SquareStyle::Numbers);
            assert_eq!(board.parse_move(&text, Strictness::Exact).as_ref(), Ok(mv));
        }
        let any = AnyPosition::from(board);
        assert_eq!(GamePosition::to_fen(&any), GamePosition::to_fen(&board));
        assert_eq!(GamePosition::lone_man_loser(&any), Some(Color::White));
        // Its FEN reads back under the same definition, from the board or from any position of it; a FEN of
        // squares the board does not have is refused.
        let fen = GamePosition::to_fen(&board);
        assert_eq!(board.standard_start().read_fen(&fen), Ok(board));
        assert_eq!(any.read_fen(&fen), Ok(any));
        assert!(board.read_fen("W:Wz9:Bh8").is_err());
    }

    #[test]
    fn a_fen_reads_back_under_the_rules_of_the_position_it_is_read_by() {
        let english: Position<English> = parse_fen("B:W18,24,K10:B12,K22").expect("valid");
        let fen = GamePosition::to_fen(&english);
        assert_eq!(Position::<English>::start().read_fen(&fen), Ok(english));
        let any = AnyPosition::from(english);
        assert_eq!(
            AnyPosition::from(Position::<English>::start()).read_fen(&fen),
            Ok(any)
        );
        // International squares run to 50: English rules refuse them.
        assert!(Position::<English>::start().read_fen("W:W45:B1").is_err());
    }

    #[test]
    fn who_wins_without_moves_follows_the_goal() {
        let english: Position<English> = parse_fen("W:W:B1").expect("valid");
        assert_eq!(english.winner_without_moves(), Color::Black);
        let anti: Position<Antidraughts> = parse_fen("W:W:B1").expect("valid");
        assert_eq!(GamePosition::winner_without_moves(&anti), Color::White);
        assert_eq!(
            GamePosition::winner_without_moves(&AnyPosition::from(anti)),
            Color::White
        );
        // A built-in position is its own standard start only at the start.
        assert_eq!(english.standard_start(), Position::<English>::start());
        assert_eq!(GamePosition::game_type(&english).size, 8);
    }

    #[test]
    fn every_rules_count_agrees_with_playing_every_move() {
        // The built-in generator's one walk, each order of capture apart and merged, at the start and where
        // routes with the same effect come apart (a king taking four pieces round a ring either way: perft 1
        // is 2 against 1).
        let start = Position::<English>::start();
        let ring: Position<English> = parse_fen("B:W10,11,18,19:BK14").expect("valid");
        assert_eq!(
            GamePosition::perft_by_depth(&ring, 1, Duplicates::Keep),
            [2]
        );
        assert_eq!(
            GamePosition::perft_by_depth(&ring, 1, Duplicates::Merge),
            [1]
        );
        for pos in [start, ring] {
            for duplicates in [Duplicates::Keep, Duplicates::Merge] {
                let plain: Vec<u64> = (1..=5)
                    .map(|d| perft_by_playing(&pos, d, duplicates))
                    .collect();
                assert_eq!(GamePosition::perft_by_depth(&pos, 5, duplicates), plain);
                let any = AnyPosition::from(pos);
                assert_eq!(GamePosition::perft_by_depth(&any, 5, duplicates), plain);
            }
        }
        assert_eq!(
            GamePosition::perft_by_depth(&start, 6, Duplicates::Keep),
            [7, 49, 302, 1469, 7361, 36768]
        );
        // A definition's own generator (Turkish draughts' fast one here), and English written as a definition.
        let english = register(
            BUILTINS
                .iter()
                .find(|(name, _)| *name == "english")
                .expect("built in")
                .1,
        )
        .expect("loads");
        let turkish = load_builtin("turkish").expect("built in").expect("loads");
        for id in [turkish, english] {
            let board = DefinedBoard::start(id);
            let plain: Vec<u64> = (1..=4)
                .map(|d| perft_by_playing(&board, d, Duplicates::Keep))
                .collect();
            assert_eq!(
                GamePosition::perft_by_depth(&board, 4, Duplicates::Keep),
                plain
            );
            let any = AnyPosition::from(board);
            assert_eq!(
                GamePosition::perft_by_depth(&any, 4, Duplicates::Merge),
                plain
            );
        }
        assert_eq!(
            GamePosition::perft_by_depth(&DefinedBoard::start(english), 4, Duplicates::Keep),
            [7, 49, 302, 1469]
        );
    }
}
