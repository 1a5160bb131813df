//! The names the server knows things by, each a type of its own so that one cannot be passed for another: a
//! player by their key's fingerprint, a game in the records by its number, a table by the code it is joined by.

use std::fmt;

use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// A name made of text: built from text as it is, compared with text, shown and stored as the text.
macro_rules! text_id {
    ($(#[$doc:meta])* $name:ident, $(#[$derive:meta])*) => {
        $(#[$doc])*
        $(#[$derive])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(String);

        impl $name {
            /// The name written as `text`, taken as it is.
            pub fn new(text: impl Into<String>) -> $name {
                $name(text.into())
            }

            /// As written.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> $name {
                $name::new(text)
            }
        }

        impl From<String> for $name {
            fn from(text: String) -> $name {
                $name(text)
            }
        }

        impl From<$name> for String {
            fn from(name: $name) -> String {
                name.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<$name> {
                String::column_result(value).map($name)
            }
        }
    };
}

text_id!(
    /// A player, by the SHA-256 fingerprint of their key as `ssh-keygen -l` prints it (`SHA256:...`), or a
    /// guest's own for as long as they are connected (`guest-17`).
    Fingerprint,
);

text_id!(
    /// A table, by the short code it is joined by (`K7QX`, see [`super::codes`]; a code typed by a player is read
    /// with [`super::codes::read_code`]); empty for a table on its own (tests).
    TableCode,
    #[derive(Default)]
);

/// A game in the server's records, by its number there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(i64);

impl GameId {
    /// The game numbered `number` in the records.
    pub const fn new(number: i64) -> GameId {
        GameId(number)
    }

    /// Its number in the records.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ToSql for GameId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for GameId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameId> {
        i64::column_result(value).map(GameId)
    }
}

/// What an event's lease is kept under, before its code: events and tables share the leases' database table (and
/// the heartbeat that renews it), and no table's code starts so, so neither is ever taken for the other.
pub const EVENT_KEY: &str = "event:";

/// The lease key of the event `code`.
pub fn event_key(code: &TableCode) -> TableCode {
    TableCode::new(format!("{EVENT_KEY}{code}"))
}

/// The event a lease key is of, if it is an event's.
pub fn event_of_key(key: &TableCode) -> Option<TableCode> {
    key.as_str().strip_prefix(EVENT_KEY).map(TableCode::new)
}
