//! PDN (Portable Draughts Notation 3.0): reading game files and writing games.
//!
//! Files are read a piece at a time ([`PdnPieces`]): each piece holds whole games (one, unless a syntax error hides
//! where a game ends) and is parsed on its own, so a file of any size and layout is read in memory proportional
//! to its largest game, and a game that runs past [`MAX_PIECE_BYTES`] without ending is refused, not held.

mod check;
mod defined;
mod game_type;
mod listed;
mod open;
mod parse;
mod replay;
mod scan;
mod split;
mod write;

pub use check::{
    CheckError, CheckProgress, GameCheck, check, check_as, check_games, check_reader,
    check_reader_as,
};
pub use crowned_rules::{EXCERPT_CHARS, Excerpt, clipped, quoted};
pub use defined::{
    DEFINITION_TAG, VARIANT_TAG, decode_definition, definition_of, encode_definition,
    replay_defined,
};
pub use game_type::{
    VariantError, game_type_of, game_type_of_or, game_type_of_rules, game_type_tag,
    parse_game_type, title,
};
pub use listed::ListedGame;
pub use open::{GameSource, open_game};
pub use parse::{GameText, MoveToken, PdnError, parse_games, parse_piece};
pub use replay::{ReplayError, Replayed, recorded_outcome, replay, replay_english, result_token};
pub use split::{CHUNK_BYTES, MAX_PIECE_BYTES, PdnPiece, PdnPieces};
pub use write::{write_game, write_games};
