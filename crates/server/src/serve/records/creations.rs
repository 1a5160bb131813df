//! The events players created, by key and address, for the daily caps on them: counted over every node of the
//! server (each node also keeps its own log of tries, which holds back a burst before the records have it).

use rusqlite::params;

use super::postgres::PostgresRecords;
use super::sqlite::SqliteRecords;
use super::{RecordsError, for_sqlite};
use crate::serve::ids::Fingerprint;

/// How long a creation is kept: the caps look back a day; two leave room for clocks that differ.
const KEPT_FOR: i64 = 2 * 24 * 3600;

/// The records' calls about players' event creations (a part of [`Records`](super::Records)).
pub trait EventCreations {
    /// `creator`, from `address`, created an event at `at` (seconds since the epoch); creations older than two
    /// days are let go.
    fn note_creation(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        at: i64,
    ) -> Result<(), RecordsError>;

    /// How many events `creator`, and anyone from `address`, created since `since`.
    fn creations_since(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        since: i64,
    ) -> Result<(u32, u32), RecordsError>;
}

impl EventCreations for SqliteRecords {
    fn note_creation(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        at: i64,
    ) -> Result<(), RecordsError> {
        self.db
            .execute(&for_sqlite(sql::NOTE), params![creator, address, at])?;
        self.db
            .execute(&for_sqlite(sql::FORGET), params![at - KEPT_FOR])?;
        Ok(())
    }

    fn creations_since(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        since: i64,
    ) -> Result<(u32, u32), RecordsError> {
        let (by_key, from_address): (i64, i64) = self.db.query_row(
            &for_sqlite(sql::COUNT),
            params![creator, address, since],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        Ok((count(by_key), count(from_address)))
    }
}

impl EventCreations for PostgresRecords {
    fn note_creation(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        at: i64,
    ) -> Result<(), RecordsError> {
        self.write(|c| {
            c.execute(sql::NOTE, &[&creator.as_str(), &address, &at])?;
            c.execute(sql::FORGET, &[&(at - KEPT_FOR)])?;
            Ok(())
        })
    }

    fn creations_since(
        &mut self,
        creator: &Fingerprint,
        address: Option<&str>,
        since: i64,
    ) -> Result<(u32, u32), RecordsError> {
        self.read(|c| {
            let row = c.query_one(sql::COUNT, &[&creator.as_str(), &address, &since])?;
            Ok((count(row.get(0)), count(row.get(1))))
        })
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// An event created.
    pub(in super::super) const NOTE: &str =
        "INSERT INTO event_creations (creator, address, at) VALUES ($1, $2, $3)";

    /// Creations older than the window, forgotten.
    pub(in super::super) const FORGET: &str = "DELETE FROM event_creations WHERE at < $1";

    /// The creations by a key and by an address since a time.
    pub(in super::super) const COUNT: &str = "SELECT count(*) FILTER (WHERE creator = $1),
         count(*) FILTER (WHERE address IS NOT NULL AND address = $2)
         FROM event_creations WHERE at >= $3";
}
