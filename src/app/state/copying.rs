//! `:copy`: the position on show in FEN, or the game in PDN, put on the player's clipboard by their terminal.
//!
//! The app only asks ([`Effect::Copy`]); the session writes the terminal's clipboard sequence (OSC 52) into
//! whatever its screen is drawn on, so that the copy reaches the player's own terminal over SSH as well. Whether
//! the terminal takes it is up to the terminal (most do; some ask first, some must be told to allow it), so the
//! message says what was sent, not that it arrived.

use super::App;
use crate::app::action::{Effect, MAX_COPY_BYTES};

impl App {
    /// `:copy [fen|pdn]`: the game's PDN (the default), or the position on show in FEN, to the clipboard.
    pub(super) fn copy_command(&mut self, what: Option<&str>) -> Result<Vec<Effect>, String> {
        let word = what.map(str::to_ascii_lowercase);
        let (name, text) = match word.as_deref() {
            None | Some("" | "pdn" | "game") => ("the game's PDN", self.game.to_pdn()),
            Some("fen" | "position") => ("the position's FEN", self.shown_position().to_fen()),
            Some(_) => {
                return Err(
                    "copy what? :copy fen (the position on show) or :copy pdn (the game)".into(),
                );
            }
        };
        if text.len() > MAX_COPY_BYTES {
            return Err(format!(
                "{name} is {} KB, more than a terminal takes on its clipboard at once \
                 (at most {} KB): :save writes it to a file",
                text.len().div_ceil(1024),
                MAX_COPY_BYTES / 1024
            ));
        }
        self.status = format!(
            "{name} was sent to your terminal's clipboard ({} characters; the terminal must allow \
             programs to set it, OSC 52)",
            text.chars().count()
        );
        Ok(vec![Effect::Copy(text)])
    }
}
