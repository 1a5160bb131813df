//! Settings declared once. A table of settings is written as a list of declarations (its name in the file, the
//! field it fills, the kind of value, its documentation, and its command-line flag if it has one), and
//! `settings_table!` makes from that list everything the program does with the table: the struct of values,
//! the file's reading with a message for each value it cannot use, the printed settings in the declared order,
//! and the flags that override the file, with help that names the setting and its built-in value.
//!
//! A kind of value ([`SettingKind`]) is read the same way from the file and from a flag, so the two cannot drift.

use std::fmt::{self, Display};
use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;

use clap::builder::StringValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
use toml::Value;

use super::values::{check_interval, check_seconds};

/// How a setting's values are read from the settings file and from a flag, and written back.
pub trait SettingKind: Clone + Send + Sync + 'static {
    /// The value the program uses.
    type Value: Clone + Send + Sync + 'static;
    /// Reads the value the settings file gives the setting; the error says what is accepted, as a message that
    /// follows the setting's name.
    fn read(&self, value: &Value) -> Result<Self::Value, String>;
    /// Reads a flag's text.
    fn parse(&self, text: &str) -> Result<Self::Value, String>;
    /// The value as the settings file writes it.
    fn write(&self, value: &Self::Value) -> Value;
    /// A value to hold before the built-in file is laid over it (which sets every setting).
    fn placeholder(&self) -> Self::Value;
    /// How the flag is given on the command line.
    fn form(&self) -> FlagForm {
        FlagForm::Value
    }
    /// The values of a flag given several times, as one ([`FlagForm::Repeated`]); by default the last.
    fn join(&self, values: Vec<Self::Value>) -> Option<Self::Value> {
        values.into_iter().last()
    }
}

/// How a flag is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagForm {
    /// Once, with a value.
    Value,
    /// A switch: given, the setting is on; not given, the file decides (a switch cannot say off).
    Switch,
    /// Once per item; the items given take the place of the file's list.
    Repeated,
    /// Once, with a value that may hold a secret: it is read after the command line, so that a mistake in it
    /// is told without quoting the value.
    Secret,
}

/// Whether the command line may set a setting, and under which flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CliFlag {
    /// `--NAME VALUE_NAME`.
    Flag(&'static str, &'static str),
    /// Only the settings file sets it.
    FileOnly,
}

/// The text of a value in messages and help: strings without quotes, an empty one or an empty list as `none`.
pub fn shown(value: &Value) -> String {
    match value {
        Value::String(text) if text.is_empty() => "none".into(),
        Value::String(text) => text.clone(),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

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

/// Seconds a move, above 0 and at most a day ([`check_seconds`]).
#[derive(Clone, Debug)]
pub struct Seconds;

impl SettingKind for Seconds {
    type Value = f64;

    fn read(&self, value: &Value) -> Result<f64, String> {
        check_seconds(number(value, "a number of seconds")?)
    }

    fn parse(&self, text: &str) -> Result<f64, String> {
        let seconds = text
            .trim()
            .parse()
            .map_err(|_| format!("a number of seconds, not {text:?}"))?;
        check_seconds(seconds)
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
        let seconds = text
            .trim()
            .parse()
            .map_err(|_| format!("a number of seconds, not {text:?}"))?;
        check_interval(seconds, self.0)
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

/// The message for a setting the table does not have, worded as for the tables read by serde.
pub fn unknown(key: &str, keys: &[&str]) -> String {
    let known: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    format!(
        "unknown setting `{key}`, expected one of {}",
        known.join(", ")
    )
}

/// The flag of a setting added to `command`, its help the setting's documentation, name and built-in value.
pub fn flag<K: SettingKind>(
    command: Command,
    table: &str,
    key: &'static str,
    cli: CliFlag,
    kind: &K,
    doc: &[&str],
    built_in: &K::Value,
) -> Command {
    let CliFlag::Flag(long, value_name) = cli else {
        return command;
    };
    let text: Vec<&str> = doc.iter().map(|line| line.trim()).collect();
    let help = format!(
        "{} [setting {table}.{key}, built in: {}]",
        text.join(" ").trim().trim_end_matches('.'),
        shown(&kind.write(built_in))
    );
    let arg = Arg::new(key).long(long).help(help);
    let parsed = {
        let kind = kind.clone();
        move |text: &str| kind.parse(text)
    };
    command.arg(match kind.form() {
        FlagForm::Switch => arg.action(ArgAction::SetTrue),
        FlagForm::Value => arg
            .value_name(value_name)
            .action(ArgAction::Set)
            .value_parser(parsed),
        FlagForm::Repeated => arg
            .value_name(value_name)
            .action(ArgAction::Append)
            .value_parser(parsed),
        // Taken as text; read by `given`, whose message does not quote it.
        FlagForm::Secret => arg
            .value_name(value_name)
            .action(ArgAction::Set)
            .value_parser(StringValueParser::new()),
    })
}

/// The value a setting's flag gives, if it was given.
pub fn given<K: SettingKind>(
    matches: &ArgMatches,
    key: &'static str,
    cli: CliFlag,
    kind: &K,
) -> Result<Option<K::Value>, clap::Error> {
    let CliFlag::Flag(long, _) = cli else {
        return Ok(None);
    };
    match kind.form() {
        FlagForm::Switch => match matches.get_flag(key) {
            true => kind
                .parse("true")
                .map(Some)
                .map_err(|why| clap::Error::raw(ErrorKind::ValueValidation, why)),
            false => Ok(None),
        },
        FlagForm::Value => Ok(matches.get_one::<K::Value>(key).cloned()),
        FlagForm::Repeated => Ok(matches
            .get_many::<K::Value>(key)
            .and_then(|values| kind.join(values.cloned().collect()))),
        FlagForm::Secret => match matches.get_one::<String>(key) {
            None => Ok(None),
            Some(text) => kind.parse(text).map(Some).map_err(|why| {
                clap::Error::raw(ErrorKind::ValueValidation, format!("--{long}: {why}\n"))
            }),
        },
    }
}

/// A table's values in the declared order, as the settings file writes them.
pub struct Printed(pub Vec<(&'static str, Value)>);

impl serde::Serialize for Printed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl fmt::Debug for Printed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// Declares a table of settings once, and makes from it:
/// - the struct `$settings` of the values, each field documented by its declaration;
/// - `$settings::placeholder()`, `apply` (a file's table laid over the values, each value that cannot be used
///   told with its key), `printed()` (the values as the file writes them, in the declared order) and `KEYS`;
/// - the struct `$flags` of the command line's flags (`clap::Args`), whose `over` lays the flags given over
///   the settings.
///
/// Each declaration is `/// documentation`, then `field ("key"): Type = kind, cli;` where `kind` is a [`SettingKind`]
/// whose value is `Type` and `cli` a [`CliFlag`].
macro_rules! settings_table {
    (
        $(#[doc = $table_doc:literal])*
        table $table:literal, Settings.$section:ident => $settings:ident, $flags:ident;
        $(
            $(#[doc = $doc:literal])*
            $field:ident ($key:literal): $ty:ty = $kind:expr, $cli:expr;
        )*
    ) => {
        $(#[doc = $table_doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $settings {
            $(
                $(#[doc = $doc])*
                #[doc = concat!("\n\nThe setting `", $table, ".", $key, "`.")]
                pub $field: $ty,
            )*
        }

        impl $settings {
            /// The settings' names in the file, in the declared order.
            pub const KEYS: &'static [&'static str] = &[$($key),*];

            /// Values to hold before the built-in file, which sets every one, is laid over them.
            pub(super) fn placeholder() -> $settings {
                use $crate::config::schema::SettingKind as _;
                $settings { $($field: ($kind).placeholder(),)* }
            }

            /// Lays a file's table over these values; each value that cannot be used, and each name that is no
            /// setting, goes to `problem` with its key.
            pub(super) fn apply(&mut self, table: toml::Table, problem: &mut dyn FnMut(&str, String)) {
                use $crate::config::schema::SettingKind as _;
                for (key, value) in table {
                    match key.as_str() {
                        $(
                            $key => match ($kind).read(&value) {
                                Ok(read) => self.$field = read,
                                Err(message) => problem($key, message),
                            },
                        )*
                        other => problem(
                            other,
                            $crate::config::schema::unknown(other, Self::KEYS),
                        ),
                    }
                }
            }

            /// The values as the settings file writes them, in the declared order.
            pub(super) fn printed(&self) -> $crate::config::schema::Printed {
                use $crate::config::schema::SettingKind as _;
                $crate::config::schema::Printed(vec![$(($key, ($kind).write(&self.$field)),)*])
            }
        }

        /// The command line's flags over the settings of the table: each given one takes its setting's place.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $flags {
            $(
                #[doc = concat!("The value given for `", $table, ".", $key, "`, if one was.")]
                pub $field: Option<$ty>,
            )*
        }

        impl $flags {
            /// `settings` with each flag given laid over its setting; a flag not given leaves its setting alone.
            pub fn over(self, settings: $settings) -> $settings {
                let mut settings = settings;
                $(
                    if let Some(value) = self.$field {
                        settings.$field = value;
                    }
                )*
                settings
            }
        }

        impl clap::FromArgMatches for $flags {
            fn from_arg_matches(matches: &clap::ArgMatches) -> Result<$flags, clap::Error> {
                Ok($flags {
                    $($field: $crate::config::schema::given(matches, $key, $cli, &$kind)?,)*
                })
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = <$flags as clap::FromArgMatches>::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl clap::Args for $flags {
            fn augment_args(command: clap::Command) -> clap::Command {
                let built_in = $crate::config::Settings::defaults().$section;
                $(
                    let command = $crate::config::schema::flag(
                        command,
                        $table,
                        $key,
                        $cli,
                        &$kind,
                        &[$($doc),*],
                        &built_in.$field,
                    );
                )*
                command
            }

            fn augment_args_for_update(command: clap::Command) -> clap::Command {
                <$flags as clap::Args>::augment_args(command)
            }
        }
    };
}

pub(crate) use settings_table;

#[cfg(test)]
mod tests {
    use clap::{Args, FromArgMatches};

    use super::*;
    use crate::config::{ServerFlags, ServerSettings, Settings};

    fn flags(args: &[&str]) -> Result<ServerSettings, String> {
        let command = ServerFlags::augment_args(Command::new("serve"));
        let matches = command
            .try_get_matches_from(std::iter::once("serve").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let flags = ServerFlags::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        Ok(flags.over(Settings::defaults().server))
    }

    #[test]
    fn flags_are_read_as_the_file_reads_them_and_laid_over_the_settings() {
        let built_in = Settings::defaults().server;
        assert_eq!(flags(&[]), Ok(built_in.clone()), "no flag changes nothing");
        let set = flags(&[
            "--max-sessions",
            "7",
            "--guests",
            "--variant-file",
            "a.toml",
            "--variant-file",
            "b.toml",
            "--web",
            "127.0.0.1:8080",
            "--records",
            "postgres://ann:pw@db/records",
            "--node-name",
            "Eu-1",
        ])
        .expect("valid flags");
        assert_eq!(set.max_sessions, 7);
        assert!(set.guests);
        assert_eq!(
            set.variant_files,
            [PathBuf::from("a.toml"), PathBuf::from("b.toml")]
        );
        assert_eq!(set.web, Some(SocketAddr::from(([127, 0, 0, 1], 8080))));
        assert_eq!(
            set.records.as_ref().map(ToString::to_string).as_deref(),
            Some("postgres://ann@db/records")
        );
        assert_eq!(
            set.node_name.map(|n| n.to_string()).as_deref(),
            Some("eu-1")
        );
        // Untouched settings keep the file's values.
        assert_eq!(set.max_per_address, built_in.max_per_address);
        assert_eq!(set.tournaments, built_in.tournaments);

        for (args, words) in [
            (&["--max-sessions", "0"][..], "from 1 to 100000"),
            (&["--lease-term", "ten"][..], "from 2 to 600"),
            (&["--listen", "everywhere"][..], "not an address and port"),
            (&["--node-name", "eu 1"][..], "letters, digits"),
        ] {
            let error = flags(args).expect_err("refused");
            assert!(error.contains(words), "{args:?}: {error}");
        }
        // A records URL that does not read is refused without being quoted: it may hold a password.
        let error = flags(&["--records", "mysql://ann:s3cret-pw@db/records"]).expect_err("refused");
        assert!(error.contains("--records"), "{error}");
        assert!(!error.contains("s3cret-pw"), "{error}");
        // Settings without a flag have none.
        let error = flags(&["--players-events", "3"]).expect_err("no such flag");
        assert!(error.contains("--players-events"), "{error}");
    }

    #[test]
    fn each_flag_is_documented_with_its_setting_and_built_in_value() {
        let help = ServerFlags::augment_args(Command::new("serve"))
            .render_long_help()
            .to_string()
            // Wrapped to the terminal's width: compared as words.
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            help.contains("[setting server.max-sessions, built in: 500]"),
            "{help}"
        );
        assert!(
            help.contains("[setting server.listen, built in: 127.0.0.1:2222]"),
            "{help}"
        );
        assert!(help.contains("--variant-file <FILE>"), "{help}");
        assert!(
            !help.contains("players-events"),
            "a file-only setting: {help}"
        );
    }

    #[test]
    fn the_printed_table_follows_the_declarations() {
        let printed = Settings::defaults().server.printed();
        let keys: Vec<&str> = printed.0.iter().map(|(key, _)| *key).collect();
        assert_eq!(keys, ServerSettings::KEYS);
        assert_eq!(
            shown(&Value::Array(Vec::new())),
            "none",
            "an empty list is shown as none"
        );
        assert_eq!(shown(&Value::String("x".into())), "x");
    }

    #[test]
    fn kinds_refuse_values_of_the_wrong_type() {
        let count = Count(1..=9);
        assert_eq!(count.read(&Value::Integer(9)), Ok(9));
        assert!(count.read(&Value::Integer(10)).is_err());
        assert!(
            count
                .read(&Value::String("3".into()))
                .is_err_and(|e| e.contains("from 1 to 9, not \"3\""))
        );
        assert!(Switch.read(&Value::Integer(1)).is_err());
        assert!(Listen.read(&Value::Boolean(true)).is_err());
        assert_eq!(
            PATHS.read(&Value::Array(vec![Value::String(" ".into())])),
            Ok(Vec::new()),
            "empty items are left out"
        );
        assert!(
            ADDRESSES
                .read(&Value::Array(vec![Value::Integer(1)]))
                .is_err()
        );
        assert!(
            ADDRESSES
                .read(&Value::Array(vec![Value::String("host".into())]))
                .is_err_and(|e| e.contains("not an address"))
        );
    }
}
