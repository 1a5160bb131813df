//! Settings declared once. A table of settings is written as a list of declarations (its name in the file, the
//! field it fills, the kind of value, its documentation, and its command-line flag if it has one), and
//! `settings_table!` makes from that list everything the program does with the table: the struct of values,
//! the file's reading with a message for each value it cannot use, the printed settings in the declared order,
//! and the flags that override the file, with help that names the setting and its built-in value.
//!
//! A kind of value ([`SettingKind`]) is read the same way from the file and from a flag, so the two cannot drift.

use std::fmt;

use clap::builder::StringValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
use toml::Value;

mod kinds;

pub use kinds::*;

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
    /// `--NAME` alone, which sets the setting to the value its kind reads from the text (`--ascii` sets
    /// `display.pieces` to `ascii`), with the flag's own help (what giving it does); not given, the file decides.
    Preset(&'static str, &'static str, &'static str),
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
    let text: Vec<&str> = doc.iter().map(|line| line.trim()).collect();
    let (long, value_name) = match cli {
        CliFlag::Flag(long, value_name) => (long, value_name),
        CliFlag::Preset(long, value, what) => {
            let help = format!(
                "{what} [sets {table}.{key} to {value}, built in: {}]",
                shown(&kind.write(built_in))
            );
            return command.arg(
                Arg::new(key)
                    .long(long)
                    .help(help)
                    .action(ArgAction::SetTrue),
            );
        }
        CliFlag::FileOnly => return command,
    };
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
    let long = match cli {
        CliFlag::Flag(long, _) => long,
        CliFlag::Preset(_, value, _) => {
            return match matches.get_flag(key) {
                true => kind
                    .parse(value)
                    .map(Some)
                    .map_err(|why| clap::Error::raw(ErrorKind::ValueValidation, why)),
                false => Ok(None),
            };
        }
        CliFlag::FileOnly => return Ok(None),
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
/// whose value is `Type` and `cli` a [`CliFlag`]. A table some of whose settings are read together elsewhere names
/// them after its flags (`also ["variant", "size"]`): `apply` leaves them to the caller, and they are no mistake.
macro_rules! settings_table {
    (
        $(#[doc = $table_doc:literal])*
        table $table:literal, Settings.$section:ident => $settings:ident, $flags:ident
            $(, also [$($also:literal),* $(,)?])?;
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
                use $crate::schema::SettingKind as _;
                $settings { $($field: ($kind).placeholder(),)* }
            }

            /// Lays a file's table over these values; each value that cannot be used, and each name that is no
            /// setting, goes to `problem` with its key.
            pub(super) fn apply(&mut self, table: toml::Table, problem: &mut dyn FnMut(&str, String)) {
                use $crate::schema::SettingKind as _;
                for (key, value) in table {
                    match key.as_str() {
                        $(
                            $key => match ($kind).read(&value) {
                                Ok(read) => self.$field = read,
                                Err(message) => problem($key, message),
                            },
                        )*
                        $($($also)|* => {})?
                        other => {
                            let names: &[&str] = &[$($key,)* $($($also,)*)?];
                            problem(other, $crate::schema::unknown(other, names))
                        }
                    }
                }
            }

            /// The values as the settings file writes them, in the declared order.
            pub(super) fn printed(&self) -> $crate::schema::Printed {
                use $crate::schema::SettingKind as _;
                $crate::schema::Printed(vec![$(($key, ($kind).write(&self.$field)),)*])
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
                    $($field: $crate::schema::given(matches, $key, $cli, &$kind)?,)*
                })
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = <$flags as clap::FromArgMatches>::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl clap::Args for $flags {
            fn augment_args(command: clap::Command) -> clap::Command {
                let built_in = $crate::Settings::defaults().$section;
                $(
                    let command = $crate::schema::flag(
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

/// The flags of a table as a command line gives them (`args` after the program's name), or clap's message.
#[cfg(test)]
pub(super) fn flags_given<F: clap::Args + clap::FromArgMatches>(
    args: &[&str],
) -> Result<F, String> {
    let command = F::augment_args(Command::new("crowned"));
    let matches = command
        .try_get_matches_from(std::iter::once("crowned").chain(args.iter().copied()))
        .map_err(|e| e.to_string())?;
    F::from_arg_matches(&matches).map_err(|e| e.to_string())
}

/// The help of a table's flags, as words: clap wraps it to the terminal's width.
#[cfg(test)]
pub(super) fn flags_help<F: clap::Args>() -> String {
    F::augment_args(Command::new("crowned"))
        .render_long_help()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;
    use std::path::PathBuf;

    use super::*;
    use crate::{ServerFlags, ServerSettings, Settings};

    fn flags(args: &[&str]) -> Result<ServerSettings, String> {
        Ok(flags_given::<ServerFlags>(args)?.over(Settings::defaults().server))
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
        let help = flags_help::<ServerFlags>();
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
