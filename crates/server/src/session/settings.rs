//! The settings screen's changes, carried out for the session: each is checked as the settings file is
//! checked, kept in the file (when the session has one), and then followed at once: the look by the session's
//! drawing, the keys and the board's bottom by the app. Commit, then show: a change that cannot be kept is still
//! followed for the session, and the screen says so; a change refused is neither kept nor followed.

use std::path::PathBuf;

use super::Session;
use crate::app::{Action, Followed};
use crate::config::SettingEdit;
use crate::config::{Settings, SettingsError, save_edit};
use crate::store::file_label;
use crate::ui::Options;

/// Where a session keeps the settings its screen changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsHome {
    /// In this settings file (the user's own, or a server player's in their folder).
    File(PathBuf),
    /// Nowhere: the changes last for the session, for this reason (a guest, a program run without a settings
    /// folder).
    Nowhere(String),
}

impl SettingsHome {
    /// Where changes are kept, as the screen's title says it.
    pub fn said(&self) -> String {
        match self {
            SettingsHome::File(path) => format!("kept in {}", file_label(path)),
            SettingsHome::Nowhere(why) => why.clone(),
        }
    }
}

impl Session {
    /// Keeps the settings screen's changes in `home` (by default they last for the session).
    pub fn keep_settings_in(mut self, home: SettingsHome) -> Session {
        self.settings_home = home;
        self
    }

    /// Opens the settings screen with the settings in force.
    pub(super) fn open_settings(&mut self) {
        let action = match &self.config.settings {
            Some(settings) => Action::ShowSettings {
                rows: settings.screen_rows(),
                saved_in: self.settings_home.said(),
            },
            None => Action::Notice("the settings cannot be changed here".into()),
        };
        self.act(action);
    }

    /// Checks `edit`, keeps it and follows it, and tells the screen.
    pub(super) fn change_setting(&mut self, edit: SettingEdit) {
        let Some(settings) = &self.config.settings else {
            return;
        };
        let (changed, note) = match carry_out(settings, &self.settings_home, &edit) {
            Ok(done) => done,
            Err(why) => {
                self.act(Action::SettingAnswered {
                    edit,
                    answer: Err(why),
                    follow: None,
                });
                return;
            }
        };
        self.config.options = Options::of(&changed, self.config.no_color);
        let follow = Followed {
            keys: changed.keys.clone(),
            orientation: changed.display.orientation,
            capture_effect: changed.display.capture_effect,
        };
        self.config.settings = Some(Box::new(changed));
        self.act(Action::SettingAnswered {
            edit,
            answer: Ok(note),
            follow: Some(Box::new(follow)),
        });
    }
}

/// Checks `edit` against `settings` as the settings file is checked and keeps it in `home`: the settings with
/// it made, and a word on where it is kept (or why it could not be, when it holds for now only); or why it is
/// refused.
pub fn carry_out(
    settings: &Settings,
    home: &SettingsHome,
    edit: &SettingEdit,
) -> Result<(Settings, String), String> {
    let changed = settings.with_edit(edit).map_err(|why| match why {
        // The setting is the one on the screen: what is wrong with its value is all there is to say.
        SettingsError::Invalid { message, .. } => message,
        why => why.brief(),
    })?;
    let note = match home {
        SettingsHome::File(path) => match save_edit(path, edit) {
            Ok(()) => format!("kept in {}", file_label(path)),
            Err(why) => why.to_string(),
        },
        SettingsHome::Nowhere(why) => why.clone(),
    };
    Ok((changed, note))
}
