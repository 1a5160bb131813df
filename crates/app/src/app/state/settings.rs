//! The settings screen over the game: opened from a key or `:settings`, its keys taken while it is open, and
//! the answers to its changes taken up (the keys at once, the board turned when its bottom changes).

use super::App;
use crate::app::action::{Action, Effect};
use crate::app::settings_screen::{Followed, ScreenOutcome, SettingsScreen};
use crate::config::SettingEdit;

impl App {
    /// The settings screen's own actions, wherever the player is: `Ok` with the effects when `action` is one.
    pub(super) fn settings_news(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        match action {
            Action::OpenSettings => Ok(vec![Effect::OpenSettings]),
            Action::ShowSettings { rows, saved_in } => {
                let screen = SettingsScreen::new(rows, &self.preferences.keys, saved_in);
                self.overlay.open_settings(screen);
                Ok(Vec::new())
            }
            Action::SettingAnswered {
                edit,
                answer,
                follow,
            } => {
                self.setting_answered(&edit, answer, follow.map(|f| *f));
                Ok(Vec::new())
            }
            action => Err(action),
        }
    }

    /// What the player does while the settings screen is open: its keys; anything else (a click, a paste) is
    /// let go.
    pub(super) fn settings_action(&mut self, action: Action) -> Vec<Effect> {
        let Action::SettingsKey(key) = action else {
            return Vec::new();
        };
        let Some(screen) = self.overlay.settings_mut() else {
            return Vec::new();
        };
        match screen.key(key) {
            ScreenOutcome::Nothing => Vec::new(),
            ScreenOutcome::Close => {
                self.overlay.close_panel();
                self.status = self.mode_message();
                Vec::new()
            }
            ScreenOutcome::Change(edit) => vec![Effect::ChangeSetting(edit)],
        }
    }

    fn setting_answered(
        &mut self,
        edit: &SettingEdit,
        answer: Result<String, String>,
        follow: Option<Followed>,
    ) {
        if let Some(follow) = follow {
            let turn = follow.orientation != self.preferences.orientation;
            self.preferences.keys = follow.keys;
            self.preferences.orientation = follow.orientation;
            self.preferences.capture_effect = follow.capture_effect;
            if turn {
                self.flipped = follow.orientation.black_at_bottom(self.players);
                self.play.fit_cursor(self.board(), self.flipped);
            }
        }
        if let Some(screen) = self.overlay.settings_mut() {
            screen.answered(edit, answer);
            screen.follow_keys(&self.preferences.keys);
        }
    }
}
