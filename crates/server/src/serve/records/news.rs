//! What a player is told when they next connect about what happened while they were away: a game lost because
//! they did not come back in time, with its rating change. Written by the game's table as it ends (on whichever
//! node), read and let go by the lobby of the player's next connection (on whichever node).

use rusqlite::params;

use super::postgres::PostgresRecords;
use super::sqlite::SqliteRecords;
use super::{RecordsError, for_sqlite, unix_now};
use crate::serve::ids::Fingerprint;

/// The most news kept for one player: the newest are told; older ones are let go as newer come.
pub const MAX_NEWS: usize = 20;

/// The records' calls about news (a part of [`Records`](super::Records)).
pub trait NewsRecords {
    /// Keeps `text` for `player`, to tell at their next connection.
    fn add_news(&mut self, player: &Fingerprint, text: &str) -> Result<(), RecordsError>;

    /// What is kept for `player`, oldest first (the newest [`MAX_NEWS`]), and lets it go: told once.
    fn take_news(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError>;
}

impl NewsRecords for SqliteRecords {
    fn add_news(&mut self, player: &Fingerprint, text: &str) -> Result<(), RecordsError> {
        let tx = self.db.savepoint()?;
        tx.execute(&for_sqlite(sql::ADD), params![player, unix_now(), text])?;
        // Bounded per player, however long they stay away.
        tx.execute(&for_sqlite(sql::BOUND), params![player, MAX_NEWS as i64])?;
        tx.commit()?;
        Ok(())
    }

    fn take_news(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError> {
        // Read first, without a write lock (a lobby opens at every connection, beside the recorder's writes);
        // only news found is let go, up to the newest read.
        let told: Vec<(i64, String)> = {
            let mut query = self
                .db
                .prepare("SELECT id, text FROM news WHERE player = ?1 ORDER BY id DESC LIMIT ?2")?;
            let rows = query.query_map(params![player, MAX_NEWS as i64], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        let Some(&(newest, _)) = told.first() else {
            return Ok(Vec::new());
        };
        self.db.execute(
            "DELETE FROM news WHERE player = ?1 AND id <= ?2",
            params![player, newest],
        )?;
        Ok(told.into_iter().rev().map(|(_, text)| text).collect())
    }
}

impl NewsRecords for PostgresRecords {
    fn add_news(&mut self, player: &Fingerprint, text: &str) -> Result<(), RecordsError> {
        let at = unix_now();
        self.write(|c| {
            c.execute(sql::ADD, &[&player.as_str(), &at, &text])?;
            c.execute(sql::BOUND, &[&player.as_str(), &(MAX_NEWS as i64)])?;
            Ok(())
        })
    }

    fn take_news(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError> {
        // Looked for first, without writing: a lobby opens at every connection, and most have nothing to tell.
        let any = self.read(|c| {
            c.query_opt(
                "SELECT 1 FROM news WHERE player = $1 LIMIT 1",
                &[&player.as_str()],
            )
        })?;
        if any.is_none() {
            return Ok(Vec::new());
        }
        self.write(|c| {
            // Taken and let go in one statement: two nodes reading at once cannot both tell it.
            let rows = c.query(
                "DELETE FROM news WHERE player = $1 RETURNING id, text",
                &[&player.as_str()],
            )?;
            let mut told: Vec<(i64, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
            told.sort_by_key(|(id, _)| *id);
            let skip = told.len().saturating_sub(MAX_NEWS);
            Ok(told.into_iter().skip(skip).map(|(_, text)| text).collect())
        })
    }
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// News for a player.
    pub(in super::super) const ADD: &str =
        "INSERT INTO news (player, at, text) VALUES ($1, $2, $3)";

    /// A player's news beyond the most kept, let go.
    pub(in super::super) const BOUND: &str = "DELETE FROM news WHERE player = $1 AND id NOT IN
         (SELECT id FROM news WHERE player = $1 ORDER BY id DESC LIMIT $2)";
}
