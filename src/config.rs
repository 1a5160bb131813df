//! Settings: the built-in defaults, the user's settings file, and the command line, each overriding the one
//! before.
//!
//! The defaults are `config/default.toml`, built into the program, which also documents every setting. The
//! user's file holds only what they change; it is read as a layer of optional values laid over the defaults, so a
//! setting it does not name keeps its default. A file with any mistake in it (bad TOML, an unknown setting, a
//! value of the wrong kind or out of range, a key name that means nothing, a key bound twice) is not used at all:
//! the error names the file, the line and the setting, the program runs on the defaults, and the file is never
//! written.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use toml::de::{DeTable, DeValue};

use crate::app::{Context, KeyChord, KeyMap, Orientation, Player, Players, Preferences};
use crate::engine::Level;
use crate::rules::SquareStyle;
use crate::ui::{Options, PieceStyle, Theme, ThemeName};

/// The built-in settings file: every setting with its default, and a comment for each.
pub const DEFAULT_SETTINGS: &str = include_str!("../config/default.toml");

/// The name the built-in file goes by in messages.
const DEFAULT_SETTINGS_NAME: &str = "the built-in default.toml";

/// A settings file larger than this is not read: it cannot be a settings file, and reading it could take long.
const MAX_FILE_SIZE: u64 = 1 << 20;

/// The longest time per move, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;

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
    /// Colours (`display.theme`).
    pub theme: ThemeName,
    /// Piece glyphs (`display.pieces`).
    pub pieces: PieceStyle,
    /// Square numbers on the board (`display.square-numbers`).
    pub square_numbers: bool,
    /// How the move list writes moves (`display.notation`).
    pub notation: SquareStyle,
    /// Which side is at the bottom of the board (`display.orientation`).
    pub orientation: Orientation,
    /// Marks on the squares the selected piece can go to (`display.legal-moves`).
    pub legal_moves: bool,
    /// Seconds each step of a move is shown as the piece moves along its path (`display.animation-step`); 0
    /// shows moves at once.
    pub animation_step: f64,
    /// Saving the game in progress and filing games without being asked (`game.autosave`).
    pub autosave: bool,
    /// Moves by each side without a capture or a man moving before a draw (`game.move-limit`).
    pub move_limit: u32,
    /// The keys bound to each command (`[keys.<context>]`).
    pub keys: KeyMap,
}

/// Why the settings file was not used.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The file exists but cannot be read: permissions, a directory in its place, a read error.
    #[error("{}: cannot be read: {source}", .path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is far too large to be a settings file.
    #[error("{}: the file is larger than {MAX_FILE_SIZE} bytes", .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text, as TOML must be.
    #[error("{}: line {line}: the file is not UTF-8 text", .path.display())]
    NotText {
        /// The file.
        path: PathBuf,
        /// The line of the first byte that is not UTF-8.
        line: usize,
    },
    /// The file is read but something in it is wrong.
    #[error("{}", describe(&.path.display(), *.line, .setting.as_deref(), .message))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1, when it is known.
        line: Option<usize>,
        /// The setting, dotted (`engine.time`, `keys.board.undo`), when it is known.
        setting: Option<String>,
        /// What is wrong.
        message: String,
    },
}

fn describe(
    file: &dyn fmt::Display,
    line: Option<usize>,
    setting: Option<&str>,
    message: &str,
) -> String {
    let mut text = file.to_string();
    if let Some(line) = line {
        text.push_str(&format!(": line {line}"));
    }
    if let Some(setting) = setting {
        text.push_str(&format!(": {setting}"));
    }
    format!("{text}: {message}")
}

impl SettingsError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            SettingsError::Unreadable { path, .. }
            | SettingsError::TooLarge { path }
            | SettingsError::NotText { path, .. }
            | SettingsError::Invalid { path, .. } => path,
        }
    }

    /// The line of the file the error is about, when there is one.
    pub fn line(&self) -> Option<usize> {
        match self {
            SettingsError::NotText { line, .. } => Some(*line),
            SettingsError::Invalid { line, .. } => *line,
            SettingsError::Unreadable { .. } | SettingsError::TooLarge { .. } => None,
        }
    }

    /// The setting the error is about, when there is one.
    pub fn setting(&self) -> Option<&str> {
        match self {
            SettingsError::Invalid { setting, .. } => setting.as_deref(),
            _ => None,
        }
    }

    /// The error with the file's name instead of its whole path, for a one-line status.
    pub fn brief(&self) -> String {
        let name = self.path().file_name().map_or_else(
            || self.path().display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        match self {
            SettingsError::Unreadable { source, .. } => format!("{name}: cannot be read: {source}"),
            SettingsError::TooLarge { .. } => {
                format!("{name}: the file is larger than {MAX_FILE_SIZE} bytes")
            }
            SettingsError::NotText { line, .. } => {
                format!("{name}: line {line}: the file is not UTF-8 text")
            }
            SettingsError::Invalid {
                line,
                setting,
                message,
                ..
            } => describe(&name, *line, setting.as_deref(), message),
        }
    }
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
            theme: ThemeName::default(),
            pieces: options.pieces,
            square_numbers: options.square_numbers,
            notation: options.notation,
            orientation: preferences.orientation,
            legal_moves: options.legal_moves,
            animation_step: 0.0,
            autosave: true,
            move_limit: preferences.move_limit,
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
                self.notation = v.parse().map_err(|e| format!("{e}"))?;
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
        }
        if let Some(keys) = layer.keys {
            self.apply_keys(keys, problems);
        }
    }

    fn apply_keys(
        &mut self,
        keys: BTreeMap<String, BTreeMap<String, KeyList>>,
        problems: &mut Vec<(Vec<String>, String)>,
    ) {
        let path = |context: &str, name: Option<&str>| {
            let mut path = vec!["keys".to_string(), context.to_string()];
            path.extend(name.map(str::to_string));
            path
        };
        let mut bound: Vec<(Context, &str)> = Vec::new();
        for (context_name, commands) in &keys {
            let context: Context = match context_name.parse() {
                Ok(context) => context,
                Err(e) => {
                    problems.push((path(context_name, None), format!("{e}")));
                    continue;
                }
            };
            for (name, list) in commands {
                let parsed: Result<Vec<KeyChord>, _> = list.0.iter().map(|k| k.parse()).collect();
                let result = parsed.map_err(|e| format!("{e}")).and_then(|chords| {
                    self.keys
                        .bind(context, name, &chords)
                        .map_err(|e| format!("{e}"))
                });
                match result {
                    Ok(()) => bound.push((context, name)),
                    Err(message) => problems.push((path(context_name, Some(name)), message)),
                }
            }
        }
        if let Err(e) = self.keys.check() {
            let crate::app::KeyMapError::Conflict {
                context,
                first,
                second,
                ..
            } = e
            else {
                problems.push((vec!["keys".to_string()], format!("{e}")));
                return;
            };
            // The binding that made the conflict is the one this file made; if it made both, the later one counts
            // (the problems are sorted by line, so the earlier line is reported only when it is the only one).
            let culprit = [second, first]
                .into_iter()
                .find(|name| bound.contains(&(context, name)))
                .unwrap_or(second);
            problems.push((path(context.name(), Some(culprit)), format!("{e}")));
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
            },
            display: DisplayOut {
                theme: self.theme.name(),
                pieces: self.pieces.name(),
                square_numbers: self.square_numbers,
                notation: self.notation.name(),
                orientation: self.orientation.name(),
                legal_moves: self.legal_moves,
                animation_step: self.animation_step,
            },
            game: GameOut {
                autosave: self.autosave,
                move_limit: self.move_limit,
            },
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
    /// `--notation`.
    pub notation: Option<SquareStyle>,
    /// `--orientation`.
    pub orientation: Option<Orientation>,
    /// `--no-legal-moves`.
    pub legal_moves: Option<bool>,
    /// `--no-autosave`.
    pub autosave: Option<bool>,
    /// `--move-limit`.
    pub move_limit: Option<u32>,
}

/// A number of seconds per move, as the settings and the command line accept it.
pub fn check_seconds(seconds: f64) -> Result<f64, String> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "the time is a number of seconds above 0 and at most {MAX_SECONDS}, not {seconds}"
        ))
    }
}

/// The longest pace a game between engines may be given: ten minutes a move.
const MAX_PACE: f64 = 600.0;

/// The longest step of a move's animation: a second (longer would only be waiting).
const MAX_ANIMATION_STEP: f64 = 1.0;

/// A number of seconds from 0 (off) to `max`, as the settings and the command line accept it.
pub fn check_interval(seconds: f64, max: f64) -> Result<f64, String> {
    if seconds.is_finite() && (0.0..=max).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "the time is a number of seconds from 0 (off) to {max}, not {seconds}"
        ))
    }
}

/// A time in seconds, `None` for 0 (off).
fn seconds(seconds: f64) -> Option<Duration> {
    (seconds > 0.0).then(|| Duration::from_secs_f64(seconds))
}

fn parse_player(text: &str) -> Result<Player, String> {
    text.parse().map_err(|_| {
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        format!(
            "unknown player {text:?}: a player is \"human\" or an engine level ({})",
            levels.join(", ")
        )
    })
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

/// The line (from 1) of byte `offset`.
fn line_at(text: &[u8], offset: usize) -> usize {
    1 + text[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// TOML's messages can run over lines; a message here is one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Serde's message in the words of the settings file.
fn serde_message(message: &str) -> String {
    let mut message = one_line(message);
    for (theirs, ours) in [
        ("unknown field", "unknown setting"),
        ("expected f64", "expected a number"),
        ("expected i64", "expected a whole number"),
        ("expected a map", "expected a table"),
    ] {
        message = message.replace(theirs, ours);
    }
    message
}

/// The dotted path of the setting at byte `offset` of a parsed file: the deepest key whose name or value
/// covers it.
fn setting_at(table: &DeTable, offset: usize) -> Vec<String> {
    for (key, value) in table {
        let name = key.get_ref().to_string();
        if let DeValue::Table(inner) = value.get_ref() {
            let mut path = setting_at(inner, offset);
            if !path.is_empty() {
                path.insert(0, name);
                return path;
            }
        }
        if covers(&key.span(), offset) || covers(&value.span(), offset) {
            return vec![name];
        }
    }
    Vec::new()
}

fn covers(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

/// Where a setting's key is written, or the nearest table above it that is.
fn key_span(table: &DeTable, path: &[String]) -> Option<Range<usize>> {
    let (first, rest) = path.split_first()?;
    let (key, value) = table.iter().find(|(k, _)| k.get_ref() == first)?;
    let inner = match value.get_ref() {
        DeValue::Table(inner) => key_span(inner, rest),
        _ => None,
    };
    inner.or_else(|| Some(key.span()))
}

/// The setting written on a line of a file TOML could not read: the key before `=` (or the first word), under
/// the last table header above it.
fn setting_on_line(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    for (i, content) in text.lines().enumerate() {
        let content = content.trim();
        if let Some(header) = content.strip_prefix('[') {
            let name = header.trim_start_matches('[');
            let name = name.split(']').next().unwrap_or("").trim();
            table = name.replace(['"', '\'', ' '], "");
            if i + 1 == line {
                return (!table.is_empty()).then(|| table.clone());
            }
            continue;
        }
        if i + 1 == line {
            let key = match content.split_once('=') {
                Some((key, _)) => key.trim(),
                None => content.split_whitespace().next().unwrap_or(""),
            };
            let key = key.trim_matches(['"', '\'']);
            let bare = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !bare {
                return (!table.is_empty()).then(|| table.clone());
            }
            return Some(if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            });
        }
    }
    None
}

/// A settings file as written: every setting optional, nothing unknown allowed.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table of settings")]
struct Layer {
    players: Option<PlayersLayer>,
    engine: Option<EngineLayer>,
    display: Option<DisplayLayer>,
    game: Option<GameLayer>,
    /// Context name, then command name, then keys. Names are checked against the key table, which the types
    /// here cannot know.
    keys: Option<BTreeMap<String, BTreeMap<String, KeyList>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table of settings")]
struct PlayersLayer {
    black: Option<String>,
    white: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a table of settings")]
struct EngineLayer {
    time: Option<f64>,
    pace: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table of settings"
)]
struct DisplayLayer {
    theme: Option<String>,
    pieces: Option<String>,
    square_numbers: Option<bool>,
    notation: Option<String>,
    orientation: Option<String>,
    legal_moves: Option<bool>,
    animation_step: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a table of settings"
)]
struct GameLayer {
    autosave: Option<bool>,
    /// Wider than the setting, so that a negative number gets this program's message rather than serde's.
    move_limit: Option<i64>,
}

/// The keys of a command: a list of key names, or one name on its own.
#[derive(Debug, Default)]
struct KeyList(Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KeyList, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = KeyList;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of key names such as [\"u\", \"Ctrl-r\"]")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<KeyList, E> {
                Ok(KeyList(vec![key.to_string()]))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyList, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = seq.next_element::<String>()? {
                    keys.push(key);
                }
                Ok(KeyList(keys))
            }
        }
        deserializer.deserialize_any(Keys)
    }
}

#[derive(Serialize)]
struct FileOut<'a> {
    players: PlayersOut,
    engine: EngineOut,
    display: DisplayOut,
    game: GameOut,
    keys: KeysOut<'a>,
}

#[derive(Serialize)]
struct PlayersOut {
    black: &'static str,
    white: &'static str,
}

#[derive(Serialize)]
struct EngineOut {
    time: f64,
    pace: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct DisplayOut {
    theme: &'static str,
    pieces: &'static str,
    square_numbers: bool,
    notation: &'static str,
    orientation: &'static str,
    legal_moves: bool,
    animation_step: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct GameOut {
    autosave: bool,
    move_limit: u32,
}

/// The key map as tables of contexts, each listing its commands in the table's order.
struct KeysOut<'a>(&'a KeyMap);

struct ContextOut<'a>(&'a KeyMap, Context);

impl Serialize for KeysOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Context::ALL.len()))?;
        for context in Context::ALL {
            map.serialize_entry(context.name(), &ContextOut(self.0, context))?;
        }
        map.end()
    }
}

impl Serialize for ContextOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ContextOut(keys, context) = *self;
        let mut map = serializer.serialize_map(None)?;
        for (command, chords) in keys.bindings(context) {
            let names: Vec<String> = chords.iter().map(KeyChord::to_string).collect();
            map.serialize_entry(command.name, &names)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::KEY_COMMANDS;

    fn user(text: &str) -> Result<Settings, SettingsError> {
        Settings::defaults().overlaid(text, Path::new("/home/u/config.toml"))
    }

    /// The line and setting of an error, and its message.
    fn refused(text: &str) -> (Option<usize>, Option<String>, String) {
        match user(text) {
            Err(SettingsError::Invalid {
                line,
                setting,
                message,
                ..
            }) => (line, setting, message),
            other => panic!("{text:?} should be refused, got {other:?}"),
        }
    }

    #[test]
    fn the_built_in_file_parses_and_sets_everything() {
        let layer: Layer = toml::from_str(DEFAULT_SETTINGS).expect("the built-in file is TOML");
        let players = layer.players.expect("[players]");
        assert!(players.black.is_some() && players.white.is_some());
        assert!(layer.engine.expect("[engine]").time.is_some());
        let d = layer.display.expect("[display]");
        assert!(d.theme.is_some() && d.pieces.is_some() && d.square_numbers.is_some());
        assert!(d.notation.is_some() && d.orientation.is_some() && d.legal_moves.is_some());
        let g = layer.game.expect("[game]");
        assert!(g.autosave.is_some() && g.move_limit.is_some());
        let keys = layer.keys.expect("[keys]");
        for command in KEY_COMMANDS {
            assert!(
                keys.get(command.context.name())
                    .is_some_and(|c| c.contains_key(command.name)),
                "keys.{}.{} is in the built-in file",
                command.context,
                command.name
            );
        }
        let defaults = Settings::defaults();
        assert_eq!(
            defaults.keys,
            KeyMap::default(),
            "the file and the key table agree"
        );
        assert_eq!(
            defaults.players,
            Players {
                black: Player::Human,
                white: Player::Engine(Level::Medium)
            }
        );
        assert_eq!(defaults.preferences(), Preferences::default());
        assert_eq!(defaults.options(false), Options::default());
        assert_eq!(defaults.engine_time, 1.0);
        assert!(defaults.autosave);
    }

    #[test]
    fn a_users_file_changes_only_what_it_names() {
        let settings = user(
            "[players]\nwhite = \"hard\"\n[display]\nnotation = \"coordinates\"\npieces = \"ASCII\"\n\
             [game]\nmove-limit = 60\n[keys.board]\nundo = [\"z\", \"Ctrl-z\"]\nflip = \"F2\"\n",
        )
        .expect("valid");
        let defaults = Settings::defaults();
        assert_eq!(settings.players.white, Player::Engine(Level::Hard));
        assert_eq!(settings.players.black, defaults.players.black);
        assert_eq!(settings.notation, SquareStyle::Coordinates);
        assert_eq!(settings.pieces, PieceStyle::Ascii);
        assert_eq!(settings.move_limit, 60);
        assert_eq!(settings.theme, defaults.theme);
        let z: KeyChord = "z".parse().expect("key");
        let f2: KeyChord = "F2".parse().expect("key");
        assert_eq!(
            settings.keys.keys(Context::Board, "undo").map(<[_]>::len),
            Some(2)
        );
        assert_eq!(settings.keys.keys(Context::Board, "flip"), Some(&[f2][..]));
        assert_eq!(
            settings.keys.command_for(Context::Board, z).map(|c| c.name),
            Some("undo")
        );
        assert_eq!(
            settings.keys.keys(Context::Board, "redo"),
            defaults.keys.keys(Context::Board, "redo"),
            "other commands keep their keys"
        );
        // An empty file, or one of comments, is the defaults.
        assert_eq!(user("").expect("valid"), defaults);
        assert_eq!(user("# nothing\n\n").expect("valid"), defaults);
        // An integer is a number of seconds too.
        assert_eq!(user("[engine]\ntime = 3").expect("valid").engine_time, 3.0);
    }

    #[test]
    fn mistakes_name_the_line_and_the_setting() {
        let cases: &[(&str, usize, &str, &str)] = &[
            (
                "[engine]\ntime = \"fast\"\n",
                2,
                "engine.time",
                "invalid type",
            ),
            ("[engine]\n\ntime = -1\n", 3, "engine.time", "above 0"),
            ("[engine]\ntime = nan\n", 2, "engine.time", "above 0"),
            ("[engine]\ntime = inf\n", 2, "engine.time", "above 0"),
            (
                "[engine]\ntme = 2\n",
                2,
                "engine.tme",
                "unknown setting `tme`",
            ),
            (
                "[colours]\nboard = 1\n",
                1,
                "colours",
                "unknown setting `colours`",
            ),
            (
                "[players]\nblack = \"genius\"\n",
                2,
                "players.black",
                "unknown player \"genius\"",
            ),
            ("[players]\nwhite = 3\n", 2, "players.white", "invalid type"),
            (
                "[display]\ntheme = \"neon\"\n",
                2,
                "display.theme",
                "unknown theme",
            ),
            (
                "[display]\npieces = \"emoji\"\n",
                2,
                "display.pieces",
                "unknown piece style",
            ),
            (
                "[display]\nnotation = \"algebraic\"\n",
                2,
                "display.notation",
                "unknown notation",
            ),
            (
                "[display]\norientation = \"up\"\n",
                2,
                "display.orientation",
                "unknown orientation",
            ),
            (
                "[display]\nlegal-moves = \"yes\"\n",
                2,
                "display.legal-moves",
                "invalid type",
            ),
            (
                "[game]\nmove-limit = 0\n",
                2,
                "game.move-limit",
                "from 1 to 1000",
            ),
            ("[game]\nmove-limit = -5\n", 2, "game.move-limit", "not -5"),
            (
                "[game]\nmove-limit = 99999999999\n",
                2,
                "game.move-limit",
                "from 1 to 1000",
            ),
            ("[game]\nautosave = 1\n", 2, "game.autosave", "invalid type"),
            (
                "[keys.board]\nundo = [\"Ctrl-\"]\n",
                2,
                "keys.board.undo",
                "is not a key",
            ),
            (
                "[keys.board]\nundo = [1]\n",
                2,
                "keys.board.undo",
                "invalid type",
            ),
            (
                "[keys.board]\nundoo = [\"x\"]\n",
                2,
                "keys.board.undoo",
                "no board command \"undoo\"",
            ),
            (
                "[keys.settings]\nclear = [\"c\"]\n",
                1,
                "keys.settings",
                "no \"settings\" keys",
            ),
            (
                "[keys.board]\nundo = [\"7\"]\n",
                2,
                "keys.board.undo",
                "digits and :",
            ),
            (
                "[keys.board]\nquit = [\"Ctrl-c\"]\n",
                2,
                "keys.board.quit",
                "Ctrl-c",
            ),
            (
                "[keys.board]\n# a comment\nredo = [\"u\"]\n",
                3,
                "keys.board.redo",
                "u is bound to both undo and redo",
            ),
            ("[engine]\ntime = 1.0.0\n", 2, "engine.time", ""),
            ("[players]\nblack = \"human\n", 2, "players.black", ""),
            ("[engine\ntime = 1\n", 1, "engine", ""),
            ("[engine]\ntime 2\n", 2, "engine.time", ""),
            ("keys = 3\n", 1, "keys", "invalid type"),
        ];
        for &(text, line, setting, message) in cases {
            let (l, s, m) = refused(text);
            assert_eq!(l, Some(line), "{text:?}: {m}");
            assert_eq!(s.as_deref(), Some(setting), "{text:?}: {m}");
            assert!(m.contains(message), "{text:?}: {m}");
            assert!(!m.contains('\n'), "{text:?}: {m}");
        }
    }

    #[test]
    fn a_conflict_made_by_the_file_names_the_binding_it_made() {
        // Flip is bound to u on line 3: undo keeps u from the defaults, so flip is the culprit.
        let (line, setting, message) = refused("[keys.board]\nredo = [\"U\"]\nflip = [\"u\"]\n");
        assert_eq!(
            (line, setting.as_deref()),
            (Some(3), Some("keys.board.flip"))
        );
        assert_eq!(
            message,
            "u is bound to both undo and flip in the board keys"
        );
        // Moving undo away first makes it fine.
        user("[keys.board]\nundo = [\"x\"]\nflip = [\"u\"]\n").expect("valid");
        // The same key in two contexts is fine.
        user("[keys.dialog]\ncancel = [\"u\"]\n").expect("valid");
    }

    #[test]
    fn the_first_mistake_in_the_file_is_reported() {
        let (line, setting, _) =
            refused("[display]\ntheme = \"neon\"\n[players]\nblack = \"genius\"\n");
        assert_eq!((line, setting.as_deref()), (Some(2), Some("display.theme")));
    }

    #[test]
    fn the_error_names_the_file() {
        let error = user("[engine]\ntime = 0\n").expect_err("refused");
        let text = error.to_string();
        assert!(
            text.starts_with("/home/u/config.toml: line 2: engine.time: "),
            "{text}"
        );
        assert!(
            error
                .brief()
                .starts_with("config.toml: line 2: engine.time: "),
            "{}",
            error.brief()
        );
        assert_eq!(error.line(), Some(2));
        assert_eq!(error.setting(), Some("engine.time"));
    }

    #[test]
    fn printed_settings_read_back_the_same() {
        let mut settings = user(
            "[players]\nblack = \"max\"\n[engine]\ntime = 0.25\n[display]\norientation = \"white-bottom\"\n\
             [keys.board]\nredo = [\"Ctrl-r\", \"Shift-F3\", \"Space\"]\npick = [\"Enter\"]\n",
        )
        .expect("valid");
        settings.override_with(&Overrides {
            legal_moves: Some(false),
            autosave: Some(false),
            ..Overrides::default()
        });
        let printed = settings.to_toml();
        assert!(printed.contains("[keys.board]"), "{printed}");
        assert!(printed.contains("move-limit = 40"), "{printed}");
        let back = Settings::placeholder()
            .overlaid(&printed, Path::new("printed"))
            .expect("the printed settings are valid");
        assert_eq!(back, settings);
        assert_eq!(
            Settings::defaults().to_toml(),
            Settings::placeholder()
                .overlaid(DEFAULT_SETTINGS, Path::new("d"))
                .expect("valid")
                .to_toml()
        );
    }

    #[test]
    fn overrides_win() {
        let mut settings =
            user("[engine]\ntime = 5\n[display]\ntheme = \"wood\"\n").expect("valid");
        settings.override_with(&Overrides {
            engine_time: Some(0.5),
            black: Some(Player::Engine(Level::Easy)),
            ..Overrides::default()
        });
        assert_eq!(settings.engine_time, 0.5);
        assert_eq!(settings.theme, ThemeName::Wood);
        assert_eq!(settings.players.black, Player::Engine(Level::Easy));
        assert_eq!(settings.think_time(), Duration::from_millis(500));
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn files_missing_unreadable_and_not_text() {
        let dir = scratch("files");
        let path = dir.join("config.toml");
        assert_eq!(
            Settings::load(&path).expect("missing is fine"),
            Settings::defaults()
        );

        std::fs::create_dir(&path).expect("a directory in the file's place");
        let (settings, error) = Settings::load_or_defaults(&path);
        assert_eq!(settings, Settings::defaults());
        assert!(
            matches!(error, Some(SettingsError::Unreadable { .. })),
            "{error:?}"
        );
        std::fs::remove_dir(&path).expect("removed");

        std::fs::write(&path, b"[engine]\ntime = 2\n# caf\xe9\n").expect("written");
        let error = Settings::load(&path).expect_err("not UTF-8");
        assert!(
            matches!(error, SettingsError::NotText { line: 3, .. }),
            "{error:?}"
        );

        std::fs::write(&path, vec![b'#'; MAX_FILE_SIZE as usize + 1]).expect("written");
        let error = Settings::load(&path).expect_err("too large");
        assert!(matches!(error, SettingsError::TooLarge { .. }), "{error:?}");

        std::fs::write(&path, "[engine]\ntime = 2\n").expect("written");
        assert_eq!(Settings::load(&path).expect("valid").engine_time, 2.0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
