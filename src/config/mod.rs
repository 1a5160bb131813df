//! Settings: the built-in defaults, the user's settings file, and the command line, each overriding the one
//! before.
//!
//! The defaults are `config/default.toml`, built into the program, which also documents every setting. The
//! user's file holds only what they change; it is read as a layer of optional values laid over the defaults, so a
//! setting it does not name keeps its default. A file with any mistake in it (bad TOML, an unknown setting, a
//! value of the wrong kind or out of range, a key name that means nothing, a key bound twice) is not used at all:
//! the error names the file, the line and the setting, the program runs on the defaults, and the file is never
//! written.

use std::io::{self, Read};
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use toml::de::DeTable;

mod error;
mod keys;
mod layers;
mod locate;
mod server;
mod values;

pub use error::SettingsError;
pub use server::{
    CLIENT_STALL, ENGINE_MEGABYTES, ENGINE_THREADS, IDLE_TIMEOUT, MAX_PER_ADDRESS, MAX_SESSIONS,
    MAX_STRANGERS, SEAT_GRACE, SIGN_IN_DEADLINE, ServerSettings, parse_listen,
};

use layers::*;
use locate::*;
use values::{MAX_ANIMATION_STEP, parse_player, seconds};
pub use values::{MAX_PACE, check_interval, check_seconds, parse_clock, parse_notation};

use crate::app::{KeyMap, Orientation, Player, Players, Preferences};
use crate::engine::Level;
use crate::game::TimeControl;
use crate::rules::{GameType, SquareStyle, Variant};
use crate::ui::{Options, PieceStyle, Theme, ThemeName};

/// The built-in settings file: every setting with its default, and a comment for each.
pub const DEFAULT_SETTINGS: &str = include_str!("../../config/default.toml");

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
    pub players: Players,
    /// Seconds the engine thinks per move (`engine.time`): positive and finite.
    pub engine_time: f64,
    /// Seconds each move of a game between engines stays on the board before the next is shown (`engine.pace`);
    /// 0 shows them as fast as they come.
    pub pace: f64,
    /// The level that suggests a move when the player asks for a hint (`engine.hint-level`).
    pub hint_level: Level,
    /// Seconds it looks for one (`engine.hint-time`): positive and finite.
    pub hint_time: f64,
    /// Colours (`display.theme`).
    pub theme: ThemeName,
    /// Piece glyphs (`display.pieces`).
    pub pieces: PieceStyle,
    /// Square numbers on the board (`display.square-numbers`).
    pub square_numbers: bool,
    /// How the move list writes moves (`display.notation`); `None` ("auto") for each variant's own way.
    pub notation: Option<SquareStyle>,
    /// Which side is at the bottom of the board (`display.orientation`).
    pub orientation: Orientation,
    /// Marks on the squares the selected piece can go to (`display.legal-moves`).
    pub legal_moves: bool,
    /// Seconds each step of a move is shown as the piece moves along its path (`display.animation-step`); 0
    /// shows moves at once.
    pub animation_step: f64,
    /// Saving the game in progress and filing games without being asked (`game.autosave`).
    pub autosave: bool,
    /// Moves by each side without a capture or a man moving before a draw in English draughts
    /// (`game.move-limit`); the other variants keep their own rules.
    pub move_limit: u32,
    /// The variant, board and rows of men of a new game (`game.variant`, `game.size`, `game.rows`).
    pub game_type: GameType,
    /// The clocks of a new game (`game.clock`): `None` for none.
    pub clock: Option<TimeControl>,
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
        let options = Options::default();
        let preferences = Preferences::default();
        Settings {
            players: Players {
                black: Player::Human,
                white: Player::Human,
            },
            engine_time: 1.0,
            pace: 0.0,
            hint_level: Level::Random,
            hint_time: 1.0,
            theme: ThemeName::default(),
            pieces: options.pieces,
            square_numbers: options.square_numbers,
            notation: options.notation,
            orientation: preferences.orientation,
            legal_moves: options.legal_moves,
            animation_step: 0.0,
            autosave: true,
            move_limit: preferences.move_limit,
            game_type: GameType::default(),
            clock: None,
            server: ServerSettings::default(),
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
        settings.apply(layer, &mut problems);
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

    /// Lays a layer's values over these settings; each value that cannot be used is added to `problems` with
    /// its setting's path.
    fn apply(&mut self, layer: Layer, problems: &mut Vec<(Vec<String>, String)>) {
        let mut problem = |path: &[&str], message: String| {
            problems.push((path.iter().map(|s| s.to_string()).collect(), message));
        };
        if let Some(players) = layer.players {
            for (name, value, slot) in [
                ("black", players.black, &mut self.players.black),
                ("white", players.white, &mut self.players.white),
            ] {
                if let Some(value) = value {
                    match parse_player(&value) {
                        Ok(player) => *slot = player,
                        Err(message) => problem(&["players", name], message),
                    }
                }
            }
        }
        if let Some(engine) = layer.engine {
            if let Some(time) = engine.time {
                match check_seconds(time) {
                    Ok(time) => self.engine_time = time,
                    Err(message) => problem(&["engine", "time"], message),
                }
            }
            if let Some(pace) = engine.pace {
                match check_interval(pace, MAX_PACE) {
                    Ok(pace) => self.pace = pace,
                    Err(message) => problem(&["engine", "pace"], message),
                }
            }
            if let Some(level) = engine.hint_level {
                match level.parse::<Level>() {
                    Ok(level) => self.hint_level = level,
                    Err(e) => problem(&["engine", "hint-level"], e.to_string()),
                }
            }
            if let Some(time) = engine.hint_time {
                match check_seconds(time) {
                    Ok(time) => self.hint_time = time,
                    Err(message) => problem(&["engine", "hint-time"], message),
                }
            }
        }
        if let Some(display) = layer.display {
            let mut parse =
                |name: &str,
                 value: Option<String>,
                 apply: &mut dyn FnMut(&str) -> Result<(), String>| {
                    if let Some(value) = value
                        && let Err(message) = apply(&value)
                    {
                        problem(&["display", name], message);
                    }
                };
            parse("theme", display.theme, &mut |v| {
                self.theme = v.parse().map_err(|e| format!("{e}"))?;
                Ok(())
            });
            parse("pieces", display.pieces, &mut |v| {
                self.pieces = v.parse().map_err(|e| format!("{e}"))?;
                Ok(())
            });
            parse("notation", display.notation, &mut |v| {
                self.notation = values::parse_notation(v)?;
                Ok(())
            });
            parse("orientation", display.orientation, &mut |v| {
                self.orientation = v.parse().map_err(|e| format!("{e}"))?;
                Ok(())
            });
            if let Some(on) = display.square_numbers {
                self.square_numbers = on;
            }
            if let Some(on) = display.legal_moves {
                self.legal_moves = on;
            }
            if let Some(step) = display.animation_step {
                match check_interval(step, MAX_ANIMATION_STEP) {
                    Ok(step) => self.animation_step = step,
                    Err(message) => problem(&["display", "animation-step"], message),
                }
            }
        }
        if let Some(game) = layer.game {
            if let Some(on) = game.autosave {
                self.autosave = on;
            }
            if let Some(limit) = game.move_limit {
                match u32::try_from(limit)
                    .ok()
                    .filter(|_| MOVE_LIMITS.contains(&limit))
                {
                    Some(limit) => self.move_limit = limit,
                    None => problem(
                        &["game", "move-limit"],
                        format!(
                            "the move limit is a number of moves from {} to {}, not {limit}",
                            MOVE_LIMITS.start(),
                            MOVE_LIMITS.end()
                        ),
                    ),
                }
            }
            if let Some(clock) = &game.clock {
                match parse_clock(clock) {
                    Ok(clock) => self.clock = clock,
                    Err(message) => problem(&["game", "clock"], message),
                }
            }
            self.apply_game_type(&game, problems);
        }
        if let Some(server) = layer.server {
            self.server.apply(server, &mut |name, message| {
                problems.push((vec!["server".to_string(), name.to_string()], message));
            });
        }
        if let Some(keys) = layer.keys {
            self.apply_keys(keys, problems);
        }
    }

    /// `game.variant`, `game.size` and `game.rows`, checked together: a size or row count only means something
    /// for its variant. A variant given alone brings its own board and rows.
    fn apply_game_type(&mut self, game: &GameLayer, problems: &mut Vec<(Vec<String>, String)>) {
        if game.variant.is_none() && game.size.is_none() && game.rows.is_none() {
            return;
        }
        let mut problem = |name: &str, message: String| {
            problems.push((vec!["game".to_string(), name.to_string()], message));
        };
        let variant = match &game.variant {
            Some(name) => match name.parse::<Variant>() {
                Ok(variant) => variant,
                Err(e) => return problem("variant", e.to_string()),
            },
            None => self.game_type.variant,
        };
        let small = |name: &str, value: Option<i64>| match value.map(u8::try_from) {
            Some(Ok(n)) => Ok(Some(n)),
            Some(Err(_)) => Err((
                name.to_string(),
                format!("{} is out of range", value.unwrap_or_default()),
            )),
            None => Ok(None),
        };
        let checked = small("size", game.size)
            .and_then(|size| Ok((size, small("rows", game.rows)?)))
            .and_then(|(size, rows)| {
                GameType::new(variant, size, rows).map_err(|e| {
                    let name = if game.rows.is_some() && game.size.is_none() {
                        "rows"
                    } else {
                        "size"
                    };
                    (name.to_string(), e.to_string())
                })
            });
        match checked {
            Ok(game_type) => self.game_type = game_type,
            Err((name, message)) => problem(&name, message),
        }
    }

    /// Lays the command line's choices over the settings.
    pub fn override_with(&mut self, overrides: &Overrides) {
        let o = overrides;
        if let Some(black) = o.black {
            self.players.black = black;
        }
        if let Some(white) = o.white {
            self.players.white = white;
        }
        if let Some(time) = o.engine_time {
            self.engine_time = time;
        }
        if let Some(pace) = o.pace {
            self.pace = pace;
        }
        if let Some(step) = o.animation_step {
            self.animation_step = step;
        }
        if let Some(theme) = o.theme {
            self.theme = theme;
        }
        if let Some(pieces) = o.pieces {
            self.pieces = pieces;
        }
        if let Some(on) = o.square_numbers {
            self.square_numbers = on;
        }
        if let Some(notation) = o.notation {
            self.notation = notation;
        }
        if let Some(orientation) = o.orientation {
            self.orientation = orientation;
        }
        if let Some(on) = o.legal_moves {
            self.legal_moves = on;
        }
        if let Some(on) = o.autosave {
            self.autosave = on;
        }
        if let Some(limit) = o.move_limit {
            self.move_limit = limit;
        }
        if let Some(clock) = o.clock {
            self.clock = clock;
        }
    }

    /// The engine's time per move.
    pub fn think_time(&self) -> Duration {
        Duration::from_secs_f64(self.engine_time)
    }

    /// What the app follows.
    pub fn preferences(&self) -> Preferences {
        Preferences {
            keys: self.keys.clone(),
            orientation: self.orientation,
            move_limit: self.move_limit,
            pace: seconds(self.pace),
            animation_step: seconds(self.animation_step),
            think_time: self.think_time(),
            hint_level: self.hint_level,
            hint_time: Duration::from_secs_f64(self.hint_time),
            clock: self.clock,
            ..Preferences::default()
        }
    }

    /// How the screen looks; `no_color` (the `NO_COLOR` convention) turns the colours off whatever the theme.
    pub fn options(&self, no_color: bool) -> Options {
        Options {
            theme: Theme::new(self.theme, no_color),
            pieces: self.pieces,
            square_numbers: self.square_numbers,
            notation: self.notation,
            legal_moves: self.legal_moves,
        }
    }

    /// The settings as a settings file in the shape of `config/default.toml`, keys included; reading it back
    /// gives the same settings.
    pub fn to_toml(&self) -> String {
        let file = FileOut {
            players: PlayersOut {
                black: self.players.black.word(),
                white: self.players.white.word(),
            },
            engine: EngineOut {
                time: self.engine_time,
                pace: self.pace,
                hint_level: self.hint_level.name(),
                hint_time: self.hint_time,
            },
            display: DisplayOut {
                theme: self.theme.name(),
                pieces: self.pieces.name(),
                square_numbers: self.square_numbers,
                notation: self.notation.map_or("auto", SquareStyle::name),
                orientation: self.orientation.name(),
                legal_moves: self.legal_moves,
                animation_step: self.animation_step,
            },
            game: GameOut {
                autosave: self.autosave,
                move_limit: self.move_limit,
                variant: self.game_type.variant.name(),
                size: self.game_type.size,
                rows: self.game_type.rows,
                clock: self
                    .clock
                    .map_or_else(|| "none".to_string(), |c| c.to_string()),
            },
            server: self.server.out(),
            keys: KeysOut(&self.keys),
        };
        // Every value is a plain string, number, boolean or list of strings, which TOML can always write.
        toml::to_string(&file).unwrap_or_default()
    }
}

/// Choices from the command line, each overriding its setting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overrides {
    /// `--black`.
    pub black: Option<Player>,
    /// `--white`.
    pub white: Option<Player>,
    /// `--time`, in seconds.
    pub engine_time: Option<f64>,
    /// `--pace`, in seconds.
    pub pace: Option<f64>,
    /// `--no-animation` (0).
    pub animation_step: Option<f64>,
    /// `--theme`.
    pub theme: Option<ThemeName>,
    /// `--ascii`.
    pub pieces: Option<PieceStyle>,
    /// `--no-numbers`.
    pub square_numbers: Option<bool>,
    /// `--notation`: `Some(None)` is `auto`, each variant's own.
    pub notation: Option<Option<SquareStyle>>,
    /// `--orientation`.
    pub orientation: Option<Orientation>,
    /// `--no-legal-moves`.
    pub legal_moves: Option<bool>,
    /// `--no-autosave`.
    pub autosave: Option<bool>,
    /// `--move-limit`.
    pub move_limit: Option<u32>,
    /// `--clock` (`Some(None)`: `--clock none`).
    pub clock: Option<Option<TimeControl>>,
}

/// Reads the settings file; `None` if there is none.
fn read_settings_file(path: &Path) -> Result<Option<String>, SettingsError> {
    let unreadable = |source| SettingsError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let file = match std::fs::File::open(path) {
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
