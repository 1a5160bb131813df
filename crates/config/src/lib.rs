//! Settings: the built-in defaults, the user's settings file, and the command line, each overriding the one
//! before.
//!
//! The defaults are `config/default.toml`, built into the program, which also documents every setting. The
//! user's file holds only what they change; it is read as a layer of optional values laid over the defaults, so a
//! setting it does not name keeps its default. A file with any mistake in it (bad TOML, an unknown setting, a
//! value of the wrong kind or out of range, a key name that means nothing, a key bound twice) is not used at all:
//! the error names the file, the line and the setting, the program runs on the defaults, and the file is never
//! written.
//!
//! Each setting is declared once, in [`schema`]'s tables, and the file layer, the printed file, the command-line
//! flags and the settings screen's rows are derived from it. The settings sit below everything that reads them:
//! they stand on the rules, the game, the engine (levels and players) and the store (file helpers), and know
//! nothing of the app. The key map is theirs too ([`keymap`]): key names, contexts, commands and default keys;
//! what each command does is the app's.

#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::io::{self, Read};
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use toml::de::DeTable;

mod apply;
mod display;
mod edit;
mod engine_settings;
mod error;
mod game_settings;
pub mod keymap;
mod keys;
mod layers;
mod locate;
mod node_name;
mod players;
mod postgres_url;
mod rows;
pub mod schema;
mod server;
mod values;
mod words;

pub use display::{DisplayFlags, DisplaySettings};
pub use edit::{SaveError, save_edit};
pub use engine_settings::{EngineFlags, EngineSettings};
pub use error::SettingsError;
pub use game_settings::{GameFlags, GameSettings};
pub use node_name::{MAX_NODE_NAME, NodeName, NodeNameError};
pub use players::{PlayersFlags, PlayersSettings};
pub use postgres_url::{PostgresUrl, UrlError};
pub use rows::{RowKind, SettingEdit, SettingRow, SettingValue, keys_text};
pub use schema::parse_listen;
pub use server::{
    CLIENT_STALL, ENGINE_MEGABYTES, ENGINE_THREADS, EVENT_CAP, IDLE_TIMEOUT, LEASE_TERM,
    MAX_PER_ADDRESS, MAX_SESSIONS, MAX_STRANGERS, SEAT_GRACE, SIGN_IN_DEADLINE, ServerFlags,
    ServerSettings,
};

use layers::*;
use locate::*;
pub use values::{MAX_PACE, check_interval, check_seconds, interval, parse_clock, parse_notation};
pub use words::{
    CaptureEffect, Orientation, PieceStyle, ThemeName, UnknownCaptureEffect, UnknownOrientation,
    UnknownPieceStyle, UnknownTheme,
};

pub use keymap::{
    BadKey, Context, FIXED_KEYS, KEY_COMMANDS, Key, KeyChord, KeyCode, KeyCommand, KeyMap,
    KeyMapError, Modifiers, UnknownContext, key_help,
};

use crate::rules::GameType;

// The layers below, by the names the whole program knows them by.
use crowned_engine as engine;
use crowned_game as game;
use crowned_rules as rules;
use crowned_store as store;
use crowned_store::bounded;

/// The built-in settings file: every setting with its default, and a comment for each.
pub const DEFAULT_SETTINGS: &str = include_str!("../../../config/default.toml");

/// The name the built-in file goes by in messages.
const DEFAULT_SETTINGS_NAME: &str = "the built-in default.toml";

/// A settings file larger than this is not read: it cannot be a settings file, and reading it could take long.
const MAX_FILE_SIZE: u64 = 1 << 20;

/// The range of the move limit of the draw rule.
const MOVE_LIMITS: std::ops::RangeInclusive<i64> = 1..=1000;

/// Every setting, with the values in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Who plays each side when the program starts (`players.black`, `players.white`).
    pub players: PlayersSettings,
    /// How the engine plays (`[engine]`).
    pub engine: EngineSettings,
    /// How the board looks (`[display]`).
    pub display: DisplaySettings,
    /// How a new game is played and kept (`[game]`, its variant, board and rows apart).
    pub game: GameSettings,
    /// The variant, board and rows of men of a new game (`game.variant`, `game.size`, `game.rows`).
    pub game_type: GameType,
    /// The name `game.variant` gave a defined variant (a built-in definition such as `turkish`, or the file stem
    /// of a definition in the variants folder beside the settings file), written back as it was given.
    pub variant_name: Option<String>,
    /// How `crowned serve` runs (`[server]`).
    pub server: ServerSettings,
    /// The keys bound to each command (`[keys.<context>]`).
    pub keys: KeyMap,
}

/// The built-in settings, read once.
#[allow(
    clippy::expect_used,
    reason = "the one intended expect: the built-in file is part of the program, not input"
)]
static DEFAULTS: LazyLock<Settings> = LazyLock::new(|| {
    Settings::placeholder()
        .overlaid(DEFAULT_SETTINGS, Path::new(DEFAULT_SETTINGS_NAME))
        // The file is part of the program and a test reads it completely; a mistake in it is a bug, not input.
        .expect("the built-in settings are valid")
});

impl Default for Settings {
    fn default() -> Settings {
        Settings::defaults()
    }
}

impl Settings {
    /// The built-in settings of `config/default.toml`.
    pub fn defaults() -> Settings {
        DEFAULTS.clone()
    }

    /// Values to lay the built-in file over. The file sets every one of them (a test checks), so none of these
    /// is ever in force; the keys start unbound so that the file alone binds them.
    fn placeholder() -> Settings {
        Settings {
            players: PlayersSettings::placeholder(),
            engine: EngineSettings::placeholder(),
            display: DisplaySettings::placeholder(),
            game: GameSettings::placeholder(),
            game_type: GameType::default(),
            variant_name: None,
            server: ServerSettings::placeholder(),
            keys: KeyMap::unbound(),
        }
    }

    /// The settings with the user's file at `path` laid over the defaults. A missing file is no error: it
    /// means the defaults.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        let Some(text) = read_settings_file(path)? else {
            return Ok(Settings::defaults());
        };
        Settings::defaults().overlaid(&text, path)
    }

    /// [`Settings::load`], or the defaults and the reason the file was not used.
    pub fn load_or_defaults(path: &Path) -> (Settings, Option<SettingsError>) {
        match Settings::load(path) {
            Ok(settings) => (settings, None),
            Err(e) => (Settings::defaults(), Some(e)),
        }
    }

    /// These settings with those of `text` (the contents of the file at `path`) laid over them.
    pub fn overlaid(&self, text: &str, path: &Path) -> Result<Settings, SettingsError> {
        let invalid = |line, setting, message| SettingsError::Invalid {
            path: path.to_path_buf(),
            line,
            setting,
            message,
        };
        let document = match DeTable::parse(text) {
            Ok(document) => document,
            Err(e) => {
                let line = e.span().map(|s| line_at(text.as_bytes(), s.start));
                let setting = line.and_then(|l| setting_on_line(text, l));
                return Err(invalid(line, setting, one_line(e.message())));
            }
        };
        let document = document.get_ref();
        let layer: Layer = toml::from_str(text).map_err(|e| {
            let span = e.span();
            let line = span.as_ref().map(|s| line_at(text.as_bytes(), s.start));
            let setting = span
                .map(|s| setting_at(document, s.start))
                .filter(|path| !path.is_empty())
                .map(|path| path.join("."));
            invalid(line, setting, serde_message(e.message()))
        })?;
        let mut settings = self.clone();
        let mut problems = Vec::new();
        // Definitions named by `game.variant` live in the variants folder beside the settings file.
        let variants = path.parent().map(|dir| dir.join("variants"));
        settings.apply(layer, &mut problems, variants.as_deref());
        // Of several mistakes, the first in the file is reported.
        let first = problems
            .into_iter()
            .map(|(setting, message)| {
                let line = key_span(document, &setting).map(|s| line_at(text.as_bytes(), s.start));
                (line, setting, message)
            })
            .min_by_key(|(line, _, _)| line.unwrap_or(usize::MAX));
        match first {
            Some((line, setting, message)) => Err(invalid(line, Some(setting.join(".")), message)),
            None => Ok(settings),
        }
    }

    /// Lays the command line's choices over the settings.
    pub fn override_with(&mut self, overrides: &Overrides) {
        let o = overrides;
        self.players = o.players.clone().over(self.players.clone());
        self.engine = o.engine.clone().over(self.engine.clone());
        self.display = o.display.clone().over(self.display.clone());
        self.game = o.game.clone().over(self.game.clone());
    }

    /// The engine's time per move.
    pub fn think_time(&self) -> Duration {
        Duration::from_secs_f64(self.engine.time)
    }

    /// The settings as a settings file in the shape of `config/default.toml`, keys included; reading it back
    /// gives the same settings.
    pub fn to_toml(&self) -> String {
        let file = FileOut {
            players: self.players.printed(),
            engine: self.engine.printed(),
            display: self.display.printed(),
            game: self.game_printed(),
            server: self.server.printed(),
            keys: KeysOut(&self.keys),
        };
        // Every value is a plain string, number, boolean or list of strings, which TOML can always write.
        toml::to_string(&file).unwrap_or_default()
    }
}

/// Choices from the command line, each overriding its setting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// The `[players]` table's flags: --black and --white.
    pub players: PlayersFlags,
    /// `--time`, `--pace`: the `[engine]` table's flags.
    pub engine: EngineFlags,
    /// The `[display]` table's flags: --theme, --ascii, --no-numbers, --notation, --orientation,
    /// --no-legal-moves, --no-animation.
    pub display: DisplayFlags,
    /// The `[game]` table's flags: --no-autosave, --move-limit and --clock.
    pub game: GameFlags,
}

/// Reads the settings file; `None` if there is none.
fn read_settings_file(path: &Path) -> Result<Option<String>, SettingsError> {
    let unreadable = |source| SettingsError::Unreadable {
        path: path.to_path_buf(),
        cause: source,
    };
    let file = match crate::bounded::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    let mut bytes = Vec::new();
    file.take(MAX_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(SettingsError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| SettingsError::NotText {
            path: path.to_path_buf(),
            line: line_at(e.as_bytes(), e.utf8_error().valid_up_to()),
        })
}
#[cfg(test)]
mod tests;
