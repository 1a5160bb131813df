//! The kinds of setting values: whole numbers in a range, switches, addresses, files, times, words and lists,
//! each read the same way from the settings file and from a flag.

use std::fmt::Display;
use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;

use toml::Value;

use super::super::values::{
    check_interval, check_seconds, parse_clock, parse_notation, parse_player,
};
use super::{FlagForm, SettingKind};
use crate::engine::Player;
use crate::game::TimeControl;
use crate::rules::SquareStyle;

/// The value of `value` as text, or why it is not text.
fn text<'a>(value: &'a Value, what: &str) -> Result<&'a str, String> {
    value.as_str().ok_or_else(|| format!("{what}, not {value}"))
}

/// The items of a list of texts, empty ones left out.
fn texts<'a>(value: &'a Value, what: &str) -> Result<Vec<&'a str>, String> {
    let not = || format!("a list of {what}, not {value}");
    let items = value.as_array().ok_or_else(not)?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let text = item.as_str().ok_or_else(not)?.trim();
        if !text.is_empty() {
            out.push(text);
        }
    }
    Ok(out)
}

/// A whole number in a range, held as `u32`.
#[derive(Clone, Debug)]
pub struct Count(pub RangeInclusive<i64>);

impl Count {
    fn check(&self, number: Option<i64>, shown: &dyn Display) -> Result<u32, String> {
        number
            .filter(|n| self.0.contains(n))
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                format!(
                    "a number from {} to {}, not {shown}",
                    self.0.start(),
                    self.0.end()
                )
            })
    }
}

impl SettingKind for Count {
    type Value = u32;

    fn read(&self, value: &Value) -> Result<u32, String> {
        self.check(value.as_integer(), value)
    }

    fn parse(&self, text: &str) -> Result<u32, String> {
        self.check(text.trim().parse().ok(), &text)
    }

    fn write(&self, value: &u32) -> Value {
        Value::Integer(i64::from(*value))
    }

    fn placeholder(&self) -> u32 {
        u32::try_from(*self.0.start()).unwrap_or_default()
    }
}

/// On or off.
#[derive(Clone, Debug)]
pub struct Switch;

impl SettingKind for Switch {
    type Value = bool;

    fn read(&self, value: &Value) -> Result<bool, String> {
        value
            .as_bool()
            .ok_or_else(|| format!("true or false, not {value}"))
    }

    fn parse(&self, text: &str) -> Result<bool, String> {
        match text.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(format!("true or false, not {other:?}")),
        }
    }

    fn write(&self, value: &bool) -> Value {
        Value::Boolean(*value)
    }

    fn placeholder(&self) -> bool {
        false
    }

    fn form(&self) -> FlagForm {
        FlagForm::Switch
    }
}

/// An address and port to listen on, as `--listen` and `server.listen` take it.
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse().map_err(|_| {
        format!("{text:?} is not an address and port like 127.0.0.1:2222 or [::1]:2222")
    })
}

/// An address and port to listen on.
#[derive(Clone, Debug)]
pub struct Listen;

impl SettingKind for Listen {
    type Value = SocketAddr;

    fn read(&self, value: &Value) -> Result<SocketAddr, String> {
        parse_listen(text(value, "an address and port")?)
    }

    fn parse(&self, text: &str) -> Result<SocketAddr, String> {
        parse_listen(text)
    }

    fn write(&self, value: &SocketAddr) -> Value {
        Value::String(value.to_string())
    }

    fn placeholder(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], 0))
    }
}

/// A number read as `f64`: whole numbers too, since a file may write `2` for two seconds.
fn number(value: &Value, what: &str) -> Result<f64, String> {
    match value {
        Value::Float(x) => Ok(*x),
        Value::Integer(n) => Ok(*n as f64),
        other => Err(format!("{what}, not {other}")),
    }
}

/// A number of seconds as a flag writes it.
fn seconds_in(text: &str) -> Result<f64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("a number of seconds, not {text:?}"))
}

/// Seconds a move, above 0 and at most a day ([`check_seconds`]).
#[derive(Clone, Debug)]
pub struct Seconds;

impl SettingKind for Seconds {
    type Value = f64;

    fn read(&self, value: &Value) -> Result<f64, String> {
        check_seconds(number(value, "a number of seconds")?)
    }

    fn parse(&self, text: &str) -> Result<f64, String> {
        check_seconds(seconds_in(text)?)
    }

    fn write(&self, value: &f64) -> Value {
        Value::Float(*value)
    }

    fn placeholder(&self) -> f64 {
        1.0
    }
}

/// Seconds from 0 (off) to the most given ([`check_interval`]).
#[derive(Clone, Debug)]
pub struct Interval(pub f64);

impl SettingKind for Interval {
    type Value = f64;

    fn read(&self, value: &Value) -> Result<f64, String> {
        check_interval(number(value, "a number of seconds")?, self.0)
    }

    fn parse(&self, text: &str) -> Result<f64, String> {
        check_interval(seconds_in(text)?, self.0)
    }

    fn write(&self, value: &f64) -> Value {
        Value::Float(*value)
    }

    fn placeholder(&self) -> f64 {
        0.0
    }
}

/// A word read by its type's `FromStr` and written by its `Display` (a level, a theme); the value held is the
/// placeholder.
#[derive(Clone, Debug)]
pub struct Word<T>(pub T);

impl<T> SettingKind for Word<T>
where
    T: FromStr + Display + Clone + Send + Sync + 'static,
    T::Err: Display,
{
    type Value = T;

    fn read(&self, value: &Value) -> Result<T, String> {
        self.parse(text(value, "a word")?)
    }

    fn parse(&self, text: &str) -> Result<T, String> {
        text.trim().parse().map_err(|why: T::Err| why.to_string())
    }

    fn write(&self, value: &T) -> Value {
        Value::String(value.to_string())
    }

    fn placeholder(&self) -> T {
        self.0.clone()
    }
}

/// A value that may be left empty for none: read by its type's `FromStr`, written by its `Display` (which for
/// a records URL leaves the password out).
pub struct Optional<T>(PhantomData<fn() -> T>);

impl<T> Optional<T> {
    /// The kind.
    pub const KIND: Optional<T> = Optional(PhantomData);
}

impl<T> Clone for Optional<T> {
    fn clone(&self) -> Optional<T> {
        Optional(PhantomData)
    }
}

impl<T> SettingKind for Optional<T>
where
    T: FromStr + Display + Clone + Send + Sync + 'static,
    T::Err: Display,
{
    type Value = Option<T>;

    fn read(&self, value: &Value) -> Result<Option<T>, String> {
        self.parse(text(value, "text")?)
    }

    fn parse(&self, text: &str) -> Result<Option<T>, String> {
        match text.trim() {
            "" => Ok(None),
            text => text
                .parse()
                .map(Some)
                .map_err(|why: T::Err| why.to_string()),
        }
    }

    fn write(&self, value: &Option<T>) -> Value {
        Value::String(value.as_ref().map(ToString::to_string).unwrap_or_default())
    }

    fn placeholder(&self) -> Option<T> {
        None
    }
}

/// An address and port to listen on, or none.
#[derive(Clone, Debug)]
pub struct OptionalListen;

impl SettingKind for OptionalListen {
    type Value = Option<SocketAddr>;

    fn read(&self, value: &Value) -> Result<Option<SocketAddr>, String> {
        self.parse(text(value, "an address and port")?)
    }

    fn parse(&self, text: &str) -> Result<Option<SocketAddr>, String> {
        match text.trim() {
            "" => Ok(None),
            text => parse_listen(text).map(Some),
        }
    }

    fn write(&self, value: &Option<SocketAddr>) -> Value {
        Value::String(value.map(|a| a.to_string()).unwrap_or_default())
    }

    fn placeholder(&self) -> Option<SocketAddr> {
        None
    }
}

/// A secret's kind: as `K`, but given on the command line as [`FlagForm::Secret`].
#[derive(Clone, Debug)]
pub struct Secret<K>(pub K);

impl<K: SettingKind> SettingKind for Secret<K> {
    type Value = K::Value;

    fn read(&self, value: &Value) -> Result<K::Value, String> {
        self.0.read(value)
    }

    fn parse(&self, text: &str) -> Result<K::Value, String> {
        self.0.parse(text)
    }

    fn write(&self, value: &K::Value) -> Value {
        self.0.write(value)
    }

    fn placeholder(&self) -> K::Value {
        self.0.placeholder()
    }

    fn form(&self) -> FlagForm {
        FlagForm::Secret
    }
}

/// A file, or none.
#[derive(Clone, Debug)]
pub struct OptionalPath;

impl SettingKind for OptionalPath {
    type Value = Option<PathBuf>;

    fn read(&self, value: &Value) -> Result<Option<PathBuf>, String> {
        self.parse(text(value, "a file's path")?)
    }

    fn parse(&self, text: &str) -> Result<Option<PathBuf>, String> {
        Ok((!text.trim().is_empty()).then(|| PathBuf::from(text)))
    }

    fn write(&self, value: &Option<PathBuf>) -> Value {
        Value::String(
            value
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        )
    }

    fn placeholder(&self) -> Option<PathBuf> {
        None
    }
}

/// A list of items each read by `parse`: the file writes an array, the command line gives the flag once an
/// item, and empty items are left out.
#[derive(Clone, Debug)]
pub struct List<T> {
    /// What an item is, for messages ("texts", "addresses").
    pub items: &'static str,
    /// Reads one item.
    pub parse: fn(&str) -> Result<T, String>,
    /// Writes one item.
    pub write: fn(&T) -> String,
}

impl<T: Clone + Send + Sync + 'static> SettingKind for List<T> {
    type Value = Vec<T>;

    fn read(&self, value: &Value) -> Result<Vec<T>, String> {
        texts(value, self.items)?
            .into_iter()
            .map(self.parse)
            .collect()
    }

    fn parse(&self, text: &str) -> Result<Vec<T>, String> {
        match text.trim() {
            "" => Ok(Vec::new()),
            text => (self.parse)(text).map(|item| vec![item]),
        }
    }

    fn write(&self, value: &Vec<T>) -> Value {
        Value::Array(
            value
                .iter()
                .map(|item| Value::String((self.write)(item)))
                .collect(),
        )
    }

    fn placeholder(&self) -> Vec<T> {
        Vec::new()
    }

    fn form(&self) -> FlagForm {
        FlagForm::Repeated
    }

    fn join(&self, values: Vec<Vec<T>>) -> Option<Vec<T>> {
        (!values.is_empty()).then(|| values.into_iter().flatten().collect())
    }
}

/// Files, one a flag.
pub const PATHS: List<PathBuf> = List {
    items: "files' paths",
    parse: |text| Ok(PathBuf::from(text)),
    write: |path| path.display().to_string(),
};

/// Texts, one a flag.
pub const TEXTS: List<String> = List {
    items: "texts",
    parse: |text| Ok(text.to_string()),
    write: Clone::clone,
};

/// Addresses without a port.
pub const ADDRESSES: List<IpAddr> = List {
    items: "addresses",
    parse: |text| {
        text.parse()
            .map_err(|_| format!("{text:?} is not an address like 127.0.0.1 or ::1"))
    },
    write: ToString::to_string,
};

/// How the move list writes moves: `auto` (none: each variant's own way) or a square style.
#[derive(Clone, Debug)]
pub struct Notation;

impl SettingKind for Notation {
    type Value = Option<SquareStyle>;

    fn read(&self, value: &Value) -> Result<Option<SquareStyle>, String> {
        self.parse(text(value, "a notation")?)
    }

    fn parse(&self, text: &str) -> Result<Option<SquareStyle>, String> {
        parse_notation(text)
    }

    fn write(&self, value: &Option<SquareStyle>) -> Value {
        Value::String(value.map_or("auto", SquareStyle::name).to_string())
    }

    fn placeholder(&self) -> Option<SquareStyle> {
        None
    }
}

/// Who plays a side: `human` or an engine level, written as the word that names it.
#[derive(Clone, Debug)]
pub struct PlayerWord;

impl SettingKind for PlayerWord {
    type Value = Player;

    fn read(&self, value: &Value) -> Result<Player, String> {
        self.parse(text(value, "a player")?)
    }

    fn parse(&self, text: &str) -> Result<Player, String> {
        parse_player(text)
    }

    fn write(&self, value: &Player) -> Value {
        Value::String(value.word().to_string())
    }

    fn placeholder(&self) -> Player {
        Player::Human
    }
}

/// The clocks of a game: `none`, or a time control (`5+3`, `30s`).
#[derive(Clone, Debug)]
pub struct Clocks;

impl SettingKind for Clocks {
    type Value = Option<TimeControl>;

    fn read(&self, value: &Value) -> Result<Option<TimeControl>, String> {
        self.parse(text(value, "a time control")?)
    }

    fn parse(&self, text: &str) -> Result<Option<TimeControl>, String> {
        parse_clock(text)
    }

    fn write(&self, value: &Option<TimeControl>) -> Value {
        Value::String(value.map_or_else(|| "none".to_string(), |clock| clock.to_string()))
    }

    fn placeholder(&self) -> Option<TimeControl> {
        None
    }
}
