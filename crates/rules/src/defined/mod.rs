//! Variants as data: a draughts variant written as a TOML definition, and one general move generator that
//! plays any of them.
//!
//! The built-in variants have fast generators of their own ([`RuleSet`](super::RuleSet)); here each of them is
//! also written as a definition ([`BUILTINS`]), so that the two generators check each other, and new variants
//! (other boards, holes, pieces that move in new ways) need no new code. The general generator works on a
//! plain board of cells ([`DefinedPosition`]) and is written for clarity, not speed. Turkish draughts, which is
//! built in only as a definition, has a fast generator of its own behind the same functions ([`legal_moves`],
//! [`perft`]) for any definition that moves as it does; [`legal_moves_general`] and [`perft_general`] always run
//! the general one.
//!
//! ```
//! use crowned_rules::defined::{DefinedPosition, builtin, perft};
//!
//! let english = builtin("english")?;
//! assert_eq!(perft(&english, &DefinedPosition::start(&english), 3), 302);
//! # Ok::<(), crowned_rules::defined::DefinitionError>(())
//! ```

mod board;
mod error;
mod fen;
mod format;
mod generate;
mod glyphs;
mod position;
pub mod registry;
mod rules;
pub mod turkish;

#[cfg(test)]
mod tests;

pub use board::DefinedBoard;
pub use error::DefinitionError;
pub use fen::{from_fen, parse_move, to_fen};
pub use format::{
    BoardDefinition, CaptureDefinition, CaptureRange, Capturing, CrowningRule, DirectionSet,
    EndDefinition, Landing, Leap, Movement, NoMoves, PieceDefinition, PlacedPieces,
    PlayableSquares, PrecedenceRule, Promotion, Range, Removal, Side, StartDefinition,
    VariantDefinition,
};
pub use generate::{legal_moves, legal_moves_general, perft, perft_general};
pub use position::{DefinedMove, DefinedPosition, Occupant};
pub use registry::{DefinedId, MAX_DEFINITION_BYTES, RegistryError, register};
pub use rules::{Cell, DefinedRules, Kind, MAX_KINDS, MAX_SIDE, Step};

/// The built-in variants as definitions: a short name and the TOML text.
pub const BUILTINS: &[(&str, &str)] = &[
    ("english", include_str!("builtin/english.toml")),
    ("english-6", include_str!("builtin/english-6.toml")),
    ("english-10", include_str!("builtin/english-10.toml")),
    ("english-12", include_str!("builtin/english-12.toml")),
    ("english-14", include_str!("builtin/english-14.toml")),
    ("international", include_str!("builtin/international.toml")),
    ("brazilian", include_str!("builtin/brazilian.toml")),
    ("canadian", include_str!("builtin/canadian.toml")),
    ("russian", include_str!("builtin/russian.toml")),
    ("pool", include_str!("builtin/pool.toml")),
    ("czech", include_str!("builtin/czech.toml")),
    ("spanish", include_str!("builtin/spanish.toml")),
    ("italian", include_str!("builtin/italian.toml")),
    ("thai", include_str!("builtin/thai.toml")),
    ("antidraughts", include_str!("builtin/antidraughts.toml")),
    ("breakthrough", include_str!("builtin/breakthrough.toml")),
    ("turkish", include_str!("builtin/turkish.toml")),
    ("frisian", include_str!("builtin/frisian.toml")),
    ("frysk", include_str!("builtin/frysk.toml")),
];

/// The built-in definitions that have no fast generator of their own (Turkish draughts): they are played as
/// defined variants, by their short name.
pub fn definition_only_builtins() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUILTINS
        .iter()
        .copied()
        // English on other boards is played by its fast generator (`--size`), as is every named variant.
        .filter(|(name, _)| {
            name.parse::<crate::Variant>().is_err() && !name.starts_with("english-")
        })
}

/// Loads the built-in definition-only variant with this short name for play; `None` when there is none.
pub fn load_builtin(name: &str) -> Option<Result<DefinedId, RegistryError>> {
    definition_only_builtins()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| register(text))
}

/// The built-in variant with this short name, read and checked.
pub fn builtin(name: &str) -> Result<DefinedRules, DefinitionError> {
    let (_, text) = BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| DefinitionError::invalid("name", format!("no built-in variant {name:?}")))?;
    DefinedRules::from_toml(text)
}
