//! The rules of draughts: squares, positions, move generation, notation and FEN. Pure: no I/O. The bottom
//! layer of crowned: it depends on no other part of the program, and the compiler holds it so.
//!
//! The generator is generic over [`RuleSet`], and each of the ten [`Variant`]s is a rule set: English draughts
//! (on 8x8, or on any even board from 6x6 to 14x14), international, Russian, Brazilian, pool, Italian, Spanish,
//! Czech, Thai and Canadian.
//!
//! ```
//! use crowned_rules::{MoveText, Position, SquareStyle, Strictness, parse_fen, to_fen, write_move};
//!
//! let start: Position = Position::start();
//! assert_eq!(start.legal_moves().len(), 7);
//!
//! // Read a move as a player types it and play it.
//! let text = MoveText::parse("11-15", Position::<crowned_rules::English>::GEOMETRY)?;
//! let mv = text.find(&start, Strictness::Exact)?;
//! let next = start.play(&mv);
//! assert_eq!(to_fen(&next), "W:W21-32:B1-10,12,15");
//!
//! // Captures are compulsory; the only legal moves here are the two ways to take 18.
//! let pos: Position = parse_fen("B:W18,30:B9,14,15")?;
//! let moves: Vec<String> = pos
//!     .legal_moves()
//!     .iter()
//!     .map(|m| write_move(&pos, m, SquareStyle::Numbers))
//!     .collect();
//! assert_eq!(moves, ["14x23", "15x22"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod any;
mod bits;
mod checks;
pub mod defined;
mod excerpt;
mod fen;
mod geometry;
pub mod movegen;
mod moves;
pub mod notation;
mod perft;
mod perft_walks;
pub mod position;
mod replies;
mod ruleset;
mod square;
mod surface;
mod variant;

pub use any::{AnyPosition, Playable, PositionVisitor, RulesVisitor};
pub use bits::Bits;
pub use checks::{PositionError, check_playable, check_position, max_pieces};
pub use excerpt::{EXCERPT_CHARS, Excerpt, clipped, excerpt, quoted};
pub use fen::{FenError, parse_fen, to_fen};
pub use geometry::{DefinedShape, Direction, Geometry};
pub use moves::{INLINE_MOVES, MAX_PATH, MalformedMove, Move, MoveList};
pub use notation::{
    MoveError, MoveText, SquareName, SquareStyle, Strictness, UnknownSquareStyle, Written,
    full_route, write_move,
};
pub use perft::{Duplicates, perft, perft_by_depth};
pub use perft_walks::{PerftReport, divide, perft_by_playing, perft_reporting};
pub use position::Position;
pub use ruleset::{
    Antidraughts, Brazilian, Breakthrough, Canadian, CrowningInCapture, Czech, English, EnglishOn,
    EnglishSize, Frisian, Frysk, International, Italian, Pool, Precedence, RuleSet, Russian, Size,
    Spanish, Thai,
};
pub use square::{Color, Piece, Role, Square};
pub use surface::{Defined, GamePosition, Rules};
pub use variant::{ENGLISH_SIZES, GameType, GameTypeError, Goal, UnknownVariant, Variant};
