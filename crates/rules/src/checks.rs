//! The checks a position from outside the rules must pass, in one place for every way in: FEN on the command
//! line and in files (PDN `[FEN]` tags, opening decks) through [`parse_fen`](super::parse_fen), and the setup
//! editor through [`check_playable`].
//!
//! # The policy
//!
//! A position is **legal** when
//! - each side has at most as many pieces as it starts with ([`max_pieces`]: 12 in English draughts), and
//! - no man stands on its own crowning row.
//!
//! Both are facts of every game: pieces are never added, and a man that reaches the far row is crowned at once.
//! A position that breaks them cannot come from play, so a game from it, its perft counts and the engine's
//! judgement of it would describe no game of draughts. They are refused everywhere, with the reason, rather than
//! allowed with a warning: a warning that a script never reads lets such a position into saved games, and
//! composed problems keep to these limits too (a problem is a position that could arise, with kings standing for
//! men that were crowned). There is deliberately no check of how the pieces could have got there: that is a
//! search, not a check, and problem composers place pieces freely within these limits.
//!
//! A side with no pieces or no legal move is legal: the game is over and the side to move has lost, which
//! `crowned show` reports and perft counts as zero moves. Only starting a game needs more: [`check_playable`]
//! also asks for pieces on both sides and a legal move for the side to move.

use thiserror::Error;

use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Color, Role, Square};

/// Why a position cannot be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    /// More pieces than a side starts with.
    #[error("{color} has {count} pieces; a side has at most {most}")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
        /// How many a side starts with under these rules.
        most: u32,
    },
    /// A man on the row where it would already have been crowned.
    #[error("the {color} man on {square} stands on its crowning row: make it a king or move it")]
    UncrownedMan {
        /// Whose man.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A side without pieces: a game would be over before it began.
    #[error("{0} has no pieces")]
    NoPieces(Color),
    /// The side to move is blocked: a game would be over before it began.
    #[error("{0} is to move but has no legal move")]
    NoMoves(Color),
}

/// The most pieces a side may have under `R`: the number it starts with.
pub const fn max_pieces<R: RuleSet>() -> u32 {
    R::START_ROWS * (R::GEOMETRY.width as u32 / 2)
}

/// Whether `position` is legal: at most [`max_pieces`] a side and no man on its crowning row. The first problem
/// found is returned.
pub fn check_position<R: RuleSet>(position: &Position<R>) -> Result<(), PositionError> {
    let most = max_pieces::<R>();
    for color in Color::ALL {
        let count = pieces_of(position, color);
        if count > most {
            return Err(PositionError::TooManyPieces { color, count, most });
        }
    }
    let g = R::GEOMETRY;
    let uncrowned = position.pieces().find(|(square, piece)| {
        piece.role == Role::Man && g.row_col(*square).0 == Position::<R>::crowning_row(piece.color)
    });
    if let Some((square, piece)) = uncrowned {
        return Err(PositionError::UncrownedMan {
            color: piece.color,
            square,
        });
    }
    Ok(())
}

/// Whether a game can start from `position`: it is legal ([`check_position`]), both sides have pieces, and the
/// side to move has a legal move.
pub fn check_playable<R: RuleSet>(position: &Position<R>) -> Result<(), PositionError> {
    check_position(position)?;
    if let Some(color) = Color::ALL
        .into_iter()
        .find(|c| pieces_of(position, *c) == 0)
    {
        return Err(PositionError::NoPieces(color));
    }
    if position.legal_moves().is_empty() {
        return Err(PositionError::NoMoves(position.side_to_move()));
    }
    Ok(())
}

fn pieces_of<R: RuleSet>(position: &Position<R>, color: Color) -> u32 {
    position.count(color, Role::Man) + position.count(color, Role::King)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{English, International, Piece};

    fn square(n: u32) -> Square {
        Square::from_number(n, 32).expect("a square")
    }

    fn with(pieces: &[(u32, Color, Role)], side: Color) -> Position {
        let mut pos = Position::empty(side);
        for &(n, color, role) in pieces {
            pos.set_piece(square(n), Some(Piece::new(color, role)));
        }
        pos
    }

    #[test]
    fn a_side_starts_with_the_most_pieces_it_may_have() {
        assert_eq!(max_pieces::<English>(), 12);
        assert_eq!(max_pieces::<International>(), 20);
        assert_eq!(check_playable(&Position::<English>::start()), Ok(()));
        assert_eq!(check_playable(&Position::<International>::start()), Ok(()));
    }

    #[test]
    fn thirteen_pieces_are_refused_kings_included() {
        let mut pos: Position = Position::start();
        pos.set_piece(square(17), Some(Piece::new(Color::White, Role::King)));
        assert_eq!(
            check_position(&pos),
            Err(PositionError::TooManyPieces {
                color: Color::White,
                count: 13,
                most: 12
            })
        );
        assert_eq!(
            check_position(&pos).expect_err("13").to_string(),
            "White has 13 pieces; a side has at most 12"
        );
    }

    #[test]
    fn a_man_on_its_crowning_row_is_refused_and_a_king_there_is_not() {
        let man = with(
            &[(30, Color::Black, Role::Man), (5, Color::White, Role::Man)],
            Color::Black,
        );
        assert_eq!(
            check_position(&man).map_err(|e| e.to_string()),
            Err("the Black man on 30 stands on its crowning row: make it a king or move it".into())
        );
        let king = with(
            &[
                (30, Color::Black, Role::King),
                (1, Color::White, Role::King),
            ],
            Color::Black,
        );
        assert_eq!(check_position(&king), Ok(()));
    }

    #[test]
    fn finished_games_are_legal_but_not_playable() {
        let alone = with(&[(14, Color::Black, Role::Man)], Color::White);
        assert_eq!(check_position(&alone), Ok(()));
        assert_eq!(
            check_playable(&alone),
            Err(PositionError::NoPieces(Color::White))
        );
        // The black man on 28 is blocked by the white man on 32.
        let blocked = with(
            &[(28, Color::Black, Role::Man), (32, Color::White, Role::Man)],
            Color::Black,
        );
        assert_eq!(check_position(&blocked), Ok(()));
        assert_eq!(
            check_playable(&blocked),
            Err(PositionError::NoMoves(Color::Black))
        );
    }
}
