//! PDN (Portable Draughts Notation 3.0): reading game files and writing games.
//!
//! Files are read a piece at a time ([`Pieces`]): each piece holds whole games and is parsed on its own, so a
//! file of any size is read in memory proportional to its largest game.

mod check;
mod listed;
mod open;
mod parse;
mod replay;
mod scan;
mod split;
mod write;

pub use crate::rules::{EXCERPT_CHARS, Excerpt, clipped, quoted};
pub use check::{GameCheck, Progress, check_games, check_reader};
pub use listed::ListedGame;
pub use open::{GameSource, open_english};
pub use parse::{GameText, MoveToken, PdnError, parse_games, parse_piece};
pub use replay::{
    CheckError, MoveNumber, ReplayError, Replayed, Variant, VariantError, check, recorded_outcome,
    replay, replay_english, result_token, variant_of,
};
pub use split::{Piece, Pieces};
pub use write::{write_game, write_games};
