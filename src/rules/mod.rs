//! The rules of draughts: squares, positions, move generation, notation and FEN. Pure: no I/O.
//!
//! English draughts is the rule set implemented now; the generator is generic over [`RuleSet`] so that other
//! variants are additions.

mod fen;
mod geometry;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod replies;
mod ruleset;
mod square;

pub use fen::{FenError, parse_fen, to_fen};
pub use geometry::{Direction, Geometry};
pub use moves::{INLINE_MOVES, MAX_PATH, Move, MoveList};
pub use notation::{MoveError, MoveText, SquareStyle, Strictness, full_route, write_move};
pub use perft::{Duplicates, divide, perft, perft_by_depth, perft_by_playing};
pub use position::Position;
pub use ruleset::{Brazilian, CrowningInCapture, English, International, Pool, RuleSet, Russian};
pub use square::{Color, Piece, Role, Square};
