//! The `[players]` table: who plays each side when the program starts, declared once for the file, the printed
//! settings and the command line.

use super::schema::{CliFlag, PlayerWord, settings_table};
use crate::engine::{Player, Players};

settings_table! {
    /// Who plays each side when the program starts: the `[players]` table.
    table "players", Settings.players => PlayersSettings, PlayersFlags;

    /// Who plays Black (moves first): human, or an engine level (random, easy, medium, hard, max).
    black ("black"): Player = PlayerWord, CliFlag::Flag("black", "PLAYER");
    /// Who plays White: human, or an engine level.
    white ("white"): Player = PlayerWord, CliFlag::Flag("white", "PLAYER");
}

impl PlayersSettings {
    /// The players of a game started with these settings.
    pub fn players(&self) -> Players {
        Players {
            black: self.black,
            white: self.white,
        }
    }
}
