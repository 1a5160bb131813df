//! Who plays a match, and why one cannot be played: what the match and its seats both speak of.

use thiserror::Error;

use super::hub_client::HubError;
use crowned_engine::Level;
use crowned_rules::GameType;

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contender {
    /// crowned's own engine at a level.
    Level(Level),
    /// Another engine speaking the Hub protocol: the program to start and its arguments (another build of
    /// crowned is `path/to/crowned hub`).
    Hub(Vec<String>),
}

impl std::fmt::Display for Contender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contender::Level(level) => write!(f, "{level}"),
            Contender::Hub(command) => write!(f, "hub engine `{}`", command.join(" ")),
        }
    }
}

/// Why a match cannot be played.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum MatchError {
    /// A deck of openings for a game type it does not belong to.
    #[error(
        "the openings deck is English draughts from the standard start; {0} matches start from random openings"
    )]
    DeckDoesNotFit(GameType),
    /// An external engine failed: it could not be started, stopped answering, or played an illegal move.
    #[error("{0}")]
    Hub(#[from] HubError),
    /// Another engine was named as a player of a defined variant: the Hub protocol names the built-in variants
    /// only, so a defined variant's match is between crowned's own levels.
    #[error(
        "a Hub engine cannot play {0}: the Hub protocol names the built-in variants only; give both players a level"
    )]
    HubInDefinedVariant(GameType),
}
