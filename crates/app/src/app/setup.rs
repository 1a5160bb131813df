//! Setting up a position by hand: the board being edited, the side to move and the players. Whether a game can
//! start from it is decided by the rules' position checks ([`crate::rules::check_playable`]), the same checks
//! every FEN passes.

use thiserror::Error;

use super::action::SetupAction;
use super::dialog::PLAYER_CHOICES;
use crate::engine::{Player, Players};
use crate::rules::{AnyPosition, Color, GameType, Piece, PositionError, Role, Square};

/// Why a set-up position cannot be played, or a square cannot take a piece.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    /// The position breaks a rule every position must keep, or no game can start from it.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// Pieces stand only on the dark (playable) squares.
    #[error("pieces stand on the dark squares only")]
    LightSquare,
    /// A defined variant without the piece asked for (a king where nothing is ever crowned).
    #[error("this variant has no such piece: the cycle key puts each of its pieces in turn")]
    NoSuchPiece,
}

/// A position being edited, with the players who will play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces and the side to move. Anything may be placed; [`Setup::check`] says whether it can be played.
    position: AnyPosition,
    /// The variant and board: what the standard start is.
    game_type: GameType,
    /// Who will play each side.
    players: Players,
}

/// What pressing the "cycle" key on a square puts there next.
const CYCLE: [Option<Piece>; 5] = [
    None,
    Some(Piece::new(Color::Black, Role::Man)),
    Some(Piece::new(Color::Black, Role::King)),
    Some(Piece::new(Color::White, Role::Man)),
    Some(Piece::new(Color::White, Role::King)),
];

impl Setup {
    /// Starts editing `position`, a position of `game_type`, for `players`.
    pub fn new(position: AnyPosition, game_type: GameType, players: Players) -> Setup {
        Setup {
            position,
            game_type,
            players,
        }
    }

    /// The position as it stands (not necessarily playable).
    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// The variant and board being set up.
    pub fn game_type(&self) -> GameType {
        self.game_type
    }

    /// Who will play each side.
    pub fn players(&self) -> Players {
        self.players
    }

    /// Puts `piece` on `square`; the same piece again takes it off, so one key places and removes.
    pub fn toggle(&mut self, square: Option<Square>, piece: Piece) -> Result<(), SetupError> {
        let square = square.ok_or(SetupError::LightSquare)?;
        let now = self.position.piece_at(square);
        let next = if now == Some(piece) {
            None
        } else {
            Some(piece)
        };
        if self.position.set_piece(square, next) {
            Ok(())
        } else {
            Err(SetupError::NoSuchPiece)
        }
    }

    /// Empties `square`.
    pub fn remove(&mut self, square: Option<Square>) -> Result<(), SetupError> {
        let square = square.ok_or(SetupError::LightSquare)?;
        self.position.set_piece(square, None);
        Ok(())
    }

    /// Puts the next piece of the cycle on `square`: empty, black man, black king, white man, white king; on a
    /// defined variant's board, every kind of the definition for Black, then for White, so that any piece can be
    /// placed.
    pub fn cycle(&mut self, square: Option<Square>) -> Result<(), SetupError> {
        let square = square.ok_or(SetupError::LightSquare)?;
        if let AnyPosition::Defined(board) = &mut self.position {
            let kinds = board.entry().rules.kinds.len();
            // Empty is 0, Black's kinds 1..=kinds, White's after them.
            let at = match board.occupant(square) {
                None => 0,
                Some((Color::Black, kind)) => 1 + kind,
                Some((Color::White, kind)) => 1 + kinds + kind,
            };
            let next = match (at + 1) % (1 + 2 * kinds) {
                0 => None,
                n if n <= kinds => Some((Color::Black, n - 1)),
                n => Some((Color::White, n - 1 - kinds)),
            };
            board.set_occupant(square, next);
            return Ok(());
        }
        let now = self.position.piece_at(square);
        let at = CYCLE.iter().position(|p| *p == now).unwrap_or(0);
        self.position
            .set_piece(square, CYCLE[(at + 1) % CYCLE.len()]);
        Ok(())
    }

    /// What stands on `square`, in words ("black frog"), for a defined variant's board, whose kinds the
    /// man/king keys do not all reach.
    pub fn describe(&self, square: Square) -> Option<String> {
        let board = self.position.defined()?;
        let (color, kind) = board.occupant(square)?;
        let kind = board.entry().rules.kinds.get(kind)?;
        Some(format!(
            "{} {}",
            color.to_string().to_lowercase(),
            kind.name
        ))
    }

    /// Takes every piece off.
    pub fn clear(&mut self) {
        self.position = AnyPosition::empty(self.game_type, self.position.side_to_move());
    }

    /// The variant's starting position, with its first side to move.
    pub fn standard(&mut self) {
        self.position = AnyPosition::start(self.game_type);
    }

    /// Gives the move to the other side.
    pub fn switch_side(&mut self) {
        let side = self.position.side_to_move().opponent();
        self.position = self.position.with_side_to_move(side);
    }

    /// Changes who plays `color` to the next choice (human, then each engine level).
    pub fn cycle_player(&mut self, color: Color) {
        let slot = match color {
            Color::Black => &mut self.players.black,
            Color::White => &mut self.players.white,
        };
        let at = PLAYER_CHOICES.iter().position(|p| p == slot).unwrap_or(0);
        *slot = PLAYER_CHOICES[(at + 1) % PLAYER_CHOICES.len()];
    }

    /// Replaces the position (a FEN typed in setup), keeping the players.
    pub fn set_position(&mut self, position: AnyPosition) {
        self.position = position;
    }

    /// The position if a game can start from it, or the first reason it cannot.
    pub fn check(&self) -> Result<AnyPosition, SetupError> {
        check_position(&self.position)?;
        Ok(self.position)
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> Player {
        self.players.of(color)
    }

    /// Carries out one edit on the square under the cursor (`None` for a light square). Opening and starting
    /// change nothing here: they are the app's to do.
    pub(super) fn apply(
        &mut self,
        what: SetupAction,
        square: Option<Square>,
    ) -> Result<(), SetupError> {
        match what {
            SetupAction::Put(piece) => return self.toggle(square, piece),
            SetupAction::Remove => return self.remove(square),
            SetupAction::Cycle => return self.cycle(square),
            SetupAction::Clear => self.clear(),
            SetupAction::Standard => self.standard(),
            SetupAction::SwitchSide => self.switch_side(),
            SetupAction::CyclePlayer(color) => self.cycle_player(color),
            SetupAction::Open | SetupAction::Start => {}
        }
        Ok(())
    }
}

/// Whether a game can start from `position`, by the checks of its rules
/// ([`check_playable`](crate::rules::check_playable)): at most as many pieces a side as the variant starts with,
/// no man on its crowning row, pieces on both sides, and a legal move for the side to move.
pub fn check_position(position: &AnyPosition) -> Result<(), SetupError> {
    Ok(position.check_playable()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::rules::Variant;

    const MAX_PIECES: u32 = 12;

    fn players() -> Players {
        Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        }
    }

    fn square(n: u32) -> Option<Square> {
        Square::from_number(n, 32)
    }

    fn setup(fen: &str) -> Setup {
        let position = AnyPosition::from_fen(GameType::default(), fen).expect("test FEN");
        Setup::new(position, GameType::default(), players())
    }

    #[test]
    fn the_standard_start_is_playable() {
        let mut s = setup("W:W5:B26");
        s.standard();
        assert_eq!(s.check(), Ok(AnyPosition::start(GameType::default())));
    }

    #[test]
    fn each_variant_keeps_its_own_limits_and_start() {
        let international = GameType::standard(Variant::International);
        let mut s = Setup::new(AnyPosition::start(international), international, players());
        assert!(s.check().is_ok());
        s.toggle(
            Square::from_number(21, 50),
            Piece::new(Color::Black, Role::Man),
        )
        .expect("a dark square");
        assert_eq!(
            s.check(),
            Err(SetupError::Position(PositionError::TooManyPieces {
                color: Color::Black,
                count: 21,
                most: 20
            }))
        );
        s.clear();
        assert_eq!(s.position().count(Color::Black, Role::Man), 0);
        // White moves first in international draughts; a white man on Black's back row (1-5) is uncrowned.
        s.toggle(
            Square::from_number(3, 50),
            Piece::new(Color::White, Role::Man),
        )
        .expect("a dark square");
        s.toggle(
            Square::from_number(48, 50),
            Piece::new(Color::Black, Role::King),
        )
        .expect("a dark square");
        assert!(matches!(
            s.check(),
            Err(SetupError::Position(PositionError::UncrownedMan {
                color: Color::White,
                ..
            }))
        ));
        s.standard();
        assert_eq!(s.position().side_to_move(), Color::White);
        assert_eq!(s.position().count(Color::White, Role::Man), 20);
        let canadian = GameType::standard(Variant::Canadian);
        let mut s = Setup::new(AnyPosition::start(canadian), canadian, players());
        s.clear();
        s.standard();
        assert_eq!(s.position().count(Color::Black, Role::Man), 30);
    }

    #[test]
    fn thirteen_pieces_are_refused() {
        let mut s = setup("B:W21-32:B1-12");
        assert!(s.check().is_ok());
        s.toggle(square(13), Piece::new(Color::Black, Role::Man))
            .expect("a dark square");
        assert_eq!(
            s.check(),
            Err(SetupError::Position(PositionError::TooManyPieces {
                color: Color::Black,
                count: 13,
                most: MAX_PIECES
            }))
        );
        // Kings count too.
        s.remove(square(13)).expect("a dark square");
        s.toggle(square(17), Piece::new(Color::White, Role::King))
            .expect("a dark square");
        assert_eq!(
            s.check(),
            Err(SetupError::Position(PositionError::TooManyPieces {
                color: Color::White,
                count: 13,
                most: MAX_PIECES
            }))
        );
    }

    #[test]
    fn a_man_on_its_crowning_row_is_refused_and_a_king_there_is_not() {
        let mut s = setup("B:W18:B14");
        s.toggle(square(30), Piece::new(Color::Black, Role::Man))
            .expect("a dark square");
        let refused = s.check();
        assert_eq!(
            refused,
            Err(SetupError::Position(PositionError::UncrownedMan {
                color: Color::Black,
                square: square(30).expect("square 30")
            }))
        );
        assert!(
            refused
                .expect_err("refused")
                .to_string()
                .contains("man on 30")
        );
        s.toggle(square(30), Piece::new(Color::Black, Role::King))
            .expect("a dark square");
        assert!(s.check().is_ok());
        // White is crowned on 1-4.
        s.toggle(square(2), Piece::new(Color::White, Role::Man))
            .expect("a dark square");
        assert!(matches!(
            s.check(),
            Err(SetupError::Position(PositionError::UncrownedMan {
                color: Color::White,
                ..
            }))
        ));
    }

    #[test]
    fn a_side_without_pieces_is_refused() {
        let mut s = setup("B:W18:B14");
        s.clear();
        assert_eq!(
            s.check(),
            Err(SetupError::Position(PositionError::NoPieces(Color::Black)))
        );
        s.toggle(square(14), Piece::new(Color::Black, Role::Man))
            .expect("a dark square");
        assert_eq!(
            s.check(),
            Err(SetupError::Position(PositionError::NoPieces(Color::White)))
        );
    }

    #[test]
    fn a_blocked_side_to_move_is_refused() {
        // The black man on 28 is blocked by the white man on 32 (it cannot move backwards); White could move.
        let s = setup("B:W32,K1:B28");
        assert!(matches!(
            s.check(),
            Err(SetupError::Position(PositionError::NoMoves(Color::Black)))
        ));
        let mut s = s;
        s.switch_side();
        assert!(s.check().is_ok());
    }

    #[test]
    fn light_squares_take_no_pieces() {
        let mut s = setup("B:W18:B14");
        let before = s;
        assert_eq!(
            s.toggle(None, Piece::new(Color::Black, Role::Man)),
            Err(SetupError::LightSquare)
        );
        assert_eq!(s.cycle(None), Err(SetupError::LightSquare));
        assert_eq!(s.remove(None), Err(SetupError::LightSquare));
        assert_eq!(s, before);
    }

    #[test]
    fn toggling_places_then_removes_and_replaces_other_pieces() {
        let mut s = setup("B:W18:B14");
        let man = Piece::new(Color::White, Role::Man);
        let sq = square(22);
        s.toggle(sq, man).expect("dark");
        assert_eq!(s.position().piece_at(sq.expect("22")), Some(man));
        s.toggle(sq, man).expect("dark");
        assert_eq!(s.position().piece_at(sq.expect("22")), None);
        // Another piece on the square is replaced, not removed.
        s.toggle(square(14), man).expect("dark");
        assert_eq!(s.position().piece_at(square(14).expect("14")), Some(man));
        s.remove(square(14)).expect("dark");
        assert_eq!(s.position().piece_at(square(14).expect("14")), None);
    }

    #[test]
    fn cycling_goes_round_every_piece_and_back_to_empty() {
        let mut s = setup("B:W18:B14");
        let sq = square(15);
        let mut seen = Vec::new();
        for _ in 0..5 {
            s.cycle(sq).expect("dark");
            seen.push(s.position().piece_at(sq.expect("15")));
        }
        assert_eq!(seen, [CYCLE[1], CYCLE[2], CYCLE[3], CYCLE[4], None]);
    }

    #[test]
    fn side_and_players_change() {
        let mut s = setup("B:W18:B14");
        s.switch_side();
        assert_eq!(s.position().side_to_move(), Color::White);
        s.cycle_player(Color::Black);
        assert_eq!(s.player(Color::Black), Player::Engine(Level::Random));
        assert_eq!(s.player(Color::White), Player::Engine(Level::Medium));
        s.cycle_player(Color::White);
        assert_eq!(s.player(Color::White), Player::Engine(Level::Hard));
    }
}
