//! PDN (Portable Draughts Notation 3.0): reading game files and writing games.

mod parse;
mod replay;
mod write;

pub use parse::{GameText, MoveToken, PdnError, parse_games};
pub use replay::{
    CheckError, MoveNumber, ReplayError, Replayed, Variant, VariantError, check, recorded_outcome,
    replay, replay_english, result_token, variant_of,
};
pub use write::{write_game, write_games};

/// What checking one game of a file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCheck {
    /// 1-based index of the game in the file.
    pub index: usize,
    /// The game's `Event` tag, or an empty string.
    pub event: String,
    /// What is wrong with it, if anything: a syntax error, a move that cannot be played, a bad set-up
    /// position, or a variant this program does not play.
    pub problem: Option<String>,
}

/// Reads every game of a PDN text and replays it with the rules of its variant.
pub fn check_games(text: &str) -> Vec<GameCheck> {
    parse_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, parsed)| match parsed {
            Ok(game) => GameCheck {
                index: game.index,
                event: game.event().to_string(),
                problem: check(&game).err().map(|e| e.to_string()),
            },
            Err(e) => GameCheck {
                index: i + 1,
                event: e.event.clone().unwrap_or_default(),
                problem: Some(format!(
                    "line {}, column {}: {}",
                    e.line, e.column, e.message
                )),
            },
        })
        .collect()
}
