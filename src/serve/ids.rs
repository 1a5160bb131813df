//! The names the server knows things by, each a type of its own so that one cannot be passed for another: a
//! player by their key's fingerprint, a game in the records by its number, a room by the code it is joined by.

use std::fmt;

use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

/// A player, by the SHA-256 fingerprint of their key as `ssh-keygen -l` prints it (`SHA256:...`), or a guest's
/// own for as long as they are connected (`guest-17`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(String);

impl Fingerprint {
    /// The fingerprint written as `text`.
    pub fn new(text: impl Into<String>) -> Fingerprint {
        Fingerprint(text.into())
    }

    /// As written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Fingerprint {
    fn from(text: &str) -> Fingerprint {
        Fingerprint::new(text)
    }
}

impl From<String> for Fingerprint {
    fn from(text: String) -> Fingerprint {
        Fingerprint(text)
    }
}

impl PartialEq<str> for Fingerprint {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Fingerprint {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl ToSql for Fingerprint {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for Fingerprint {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Fingerprint> {
        String::column_result(value).map(Fingerprint)
    }
}

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

/// A room, by the short code it is joined by (`K7QX`, see [`super::codes`]); empty for a room on its own (tests).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode(String);

impl RoomCode {
    /// The code written as `text`, taken as it is: a code typed by a player is read with
    /// [`super::codes::read_code`].
    pub fn new(text: impl Into<String>) -> RoomCode {
        RoomCode(text.into())
    }

    /// As written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for RoomCode {
    fn from(text: &str) -> RoomCode {
        RoomCode::new(text)
    }
}

impl From<RoomCode> for String {
    fn from(code: RoomCode) -> String {
        code.0
    }
}

impl PartialEq<str> for RoomCode {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RoomCode {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl ToSql for RoomCode {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for RoomCode {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<RoomCode> {
        String::column_result(value).map(RoomCode)
    }
}
