//! `:copy`: the position on show in FEN, or the game in PDN, put on the player's clipboard by their terminal.
//!
//! The app only asks ([`Effect::Copy`]); the session writes the terminal's clipboard sequence (OSC 52) into
//! whatever its screen is drawn on, so that the copy reaches the player's own terminal over SSH as well. Whether
//! the terminal takes it is up to the terminal (most do; some ask first, some must be told to allow it), so the
//! message says what was sent, not that it arrived.

use super::App;
use crate::app::action::{Effect, MAX_COPY_BYTES};
use crate::store::{GAME_ID_TAG, NAME_TAG};

impl App {
    /// `:copy [fen|pdn]`: the game's PDN (the default), or the position on show in FEN, to the clipboard.
    pub(super) fn copy_command(&mut self, what: Option<&str>) -> Result<Vec<Effect>, String> {
        let word = what.map(str::to_ascii_lowercase);
        let (name, text) = match word.as_deref() {
            None | Some("" | "pdn" | "game") => ("the game's PDN", self.game_for_others()),
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

    /// The game's PDN as it goes to others: a game being played as it stands (moves taken back are not part of
    /// it), a record being replayed whole, and without the tags the saved games keep for themselves (its
    /// identity and name among them), which mean nothing elsewhere.
    fn game_for_others(&self) -> String {
        let mut game = self.play.game().clone();
        if self.replay.is_none() {
            game.truncate();
        }
        for tag in [GAME_ID_TAG, NAME_TAG] {
            game.tags_mut().remove(tag);
        }
        game.to_pdn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::action::Action;
    use crate::engine::{Player, Players};
    use crate::game::AnyGame;
    use crate::store::Filed;

    const HUMANS: Players = Players {
        black: Player::Human,
        white: Player::Human,
    };

    fn copied(effects: &[Effect]) -> Option<&str> {
        effects.iter().find_map(|e| match e {
            Effect::Copy(text) => Some(text.as_str()),
            _ => None,
        })
    }

    #[test]
    fn the_position_or_the_game_is_copied_without_the_saved_games_own_tags() {
        let (mut app, _) = App::with_game(AnyGame::default(), HUMANS);
        let _ = app.update(Action::Submit("11-15".into()));
        let effects = app.update(Action::Submit(":copy fen".into()));
        assert_eq!(copied(&effects), Some("W:W21-32:B1-10,12,15"));
        assert!(app.status().contains("FEN was sent"), "{}", app.status());
        let _ = app.update(Action::Filed(Filed {
            path: "games/club.pdn".into(),
            id: "00000000000000aa".into(),
            name: Some("club".into()),
        }));
        assert_eq!(app.game().tags().get(GAME_ID_TAG), Some("00000000000000aa"));
        let _ = app.update(Action::Submit("23-19".into()));
        let _ = app.update(Action::Undo);
        let effects = app.update(Action::Submit(":copy".into()));
        let pdn = copied(&effects).expect("the PDN");
        assert!(pdn.contains("1. 11-15"), "{pdn}");
        assert!(
            !pdn.contains("23-19"),
            "a move taken back is not the game's: {pdn}"
        );
        assert_eq!(app.game().len(), 2, "the game itself keeps it to redo");
        assert!(
            !pdn.contains(GAME_ID_TAG) && !pdn.contains(NAME_TAG),
            "{pdn}"
        );
        assert_eq!(
            app.game().tags().get(NAME_TAG),
            Some("club"),
            "kept in the game"
        );
    }

    #[test]
    fn nonsense_and_too_much_are_refused_with_the_reason() {
        let (mut app, _) = App::with_game(AnyGame::default(), HUMANS);
        let effects = app.update(Action::Submit(":copy everything".into()));
        assert!(copied(&effects).is_none());
        assert!(app.status().starts_with("copy what?"), "{}", app.status());
        assert_eq!(
            app.input().value(),
            ":copy everything",
            "left to be corrected"
        );
        let mut game = AnyGame::default();
        game.play_text("11-15").expect("legal");
        assert!(game.set_comment(1, Some("a long thought ".repeat(4_000))));
        let (mut app, _) = App::with_game(game, HUMANS);
        let effects = app.update(Action::Submit(":copy pdn".into()));
        assert!(copied(&effects).is_none());
        assert!(
            app.status().contains("more than a terminal takes"),
            "{}",
            app.status()
        );
        // The position alone is small enough.
        let effects = app.update(Action::Submit(":copy fen".into()));
        assert!(copied(&effects).is_some(), "{}", app.status());
    }
}
