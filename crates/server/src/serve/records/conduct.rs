//! What the records keep so that strangers stay civil: whom each player has blocked, the reports players make
//! about each other (with the game they were made at), and the operator's bans of keys and addresses. Every node
//! reads them from the one set of records, so a ban holds at every door of the server.

use std::net::IpAddr;

use rusqlite::{Connection, OptionalExtension, params};

use super::{RecordsError, for_sqlite};
use crate::serve::ids::Fingerprint;

/// Someone a player has blocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// Their key.
    pub key: Fingerprint,
    /// Their name when they were blocked.
    pub name: String,
}

/// A player's report about another, made at a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerReport {
    /// When, in seconds since the epoch.
    pub at: i64,
    /// Who reported, and their name then.
    pub reporter: (Fingerprint, String),
    /// Whom, and their name then.
    pub reported: (Fingerprint, String),
    /// The code of the game it was made at.
    pub game: String,
    /// What the reporter said (cleaned as chat is).
    pub text: String,
}

/// What a ban holds back: a key, or every connection from an address.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BanTarget {
    /// A key, by its fingerprint.
    Key(Fingerprint),
    /// An address.
    Address(IpAddr),
}

impl BanTarget {
    /// As the records keep it: `key SHA256:...` or `address 192.0.2.7`.
    pub fn stored(&self) -> String {
        match self {
            BanTarget::Key(key) => format!("key {key}"),
            BanTarget::Address(address) => format!("address {}", address.to_canonical()),
        }
    }

    /// Read back from [`BanTarget::stored`]; also how the operator names one on the command line: a key's
    /// fingerprint (`SHA256:...`, as `ssh-keygen -l` prints it) or an address.
    pub fn parse(text: &str) -> Option<BanTarget> {
        let text = text.trim();
        let bare = text
            .strip_prefix("key ")
            .or_else(|| text.strip_prefix("address "))
            .unwrap_or(text)
            .trim();
        if let Some(hash) = bare.strip_prefix("SHA256:") {
            let fine = !hash.is_empty()
                && hash.len() <= 64
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=');
            return fine.then(|| BanTarget::Key(Fingerprint::new(bare.to_string())));
        }
        bare.parse::<IpAddr>()
            .ok()
            .map(|a| BanTarget::Address(a.to_canonical()))
    }
}

impl std::fmt::Display for BanTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.stored())
    }
}

/// A ban: what it holds back, why (the line the banned client is given), and since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ban {
    /// The key or address.
    pub target: BanTarget,
    /// Why, as the operator wrote it.
    pub reason: String,
    /// Since when, in seconds since the epoch.
    pub since: i64,
}

/// The records' calls about conduct (a part of [`Records`](super::Records)).
pub trait Conduct {
    /// `player` blocks `other` (named `name`), or with `on` false lets them back; whether anything changed.
    fn set_block(
        &mut self,
        player: &Fingerprint,
        other: &Fingerprint,
        name: &str,
        on: bool,
    ) -> Result<bool, RecordsError>;

    /// Whom `player` has blocked, by name.
    fn blocks_of(&mut self, player: &Fingerprint) -> Result<Vec<Blocked>, RecordsError>;

    /// Whether either of `a` and `b` has blocked the other.
    fn blocked_between(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<bool, RecordsError>;

    /// Every block between two of `players`, as (who blocked, whom): the pairs a tournament never pairs.
    fn blocks_among(
        &mut self,
        players: &[Fingerprint],
    ) -> Result<Vec<(Fingerprint, Fingerprint)>, RecordsError>;

    /// Keeps a report.
    fn add_report(&mut self, report: &PlayerReport) -> Result<(), RecordsError>;

    /// The latest `count` reports, newest first.
    fn reports(&mut self, count: usize) -> Result<Vec<PlayerReport>, RecordsError>;

    /// Bans `ban.target` (a ban already there takes the new reason).
    fn ban(&mut self, ban: &Ban) -> Result<(), RecordsError>;

    /// Lifts the ban on `target`; whether there was one.
    fn unban(&mut self, target: &BanTarget) -> Result<bool, RecordsError>;

    /// Every ban, oldest first.
    fn bans(&mut self) -> Result<Vec<Ban>, RecordsError>;

    /// The ban that holds back `key` or `address`, if one does (the key's first).
    fn ban_on(
        &mut self,
        key: Option<&Fingerprint>,
        address: IpAddr,
    ) -> Result<Option<Ban>, RecordsError>;
}

/// A row of `bans` read back; a target that does not read (written by hand) is left out.
pub(super) fn ban_of(target: String, reason: String, since: i64) -> Option<Ban> {
    Some(Ban {
        target: BanTarget::parse(&target)?,
        reason,
        since,
    })
}

/// The stored targets a connection of `key` from `address` is banned by, the key's first.
pub(super) fn targets(key: Option<&Fingerprint>, address: IpAddr) -> Vec<String> {
    key.map(|k| BanTarget::Key(k.clone()))
        .into_iter()
        .chain([BanTarget::Address(address.to_canonical())])
        .map(|t| t.stored())
        .collect()
}

/// [`Conduct`] on an SQLite file.
pub(super) struct SqliteConduct<'a>(pub(super) &'a Connection);

impl SqliteConduct<'_> {
    pub(super) fn set_block(
        &self,
        (player, other, name): (&Fingerprint, &Fingerprint, &str),
        on: bool,
        now: i64,
    ) -> Result<bool, RecordsError> {
        let changed = match on {
            true => self
                .0
                .execute(&for_sqlite(sql::BLOCK), params![player, other, name, now])?,
            false => self
                .0
                .execute(&for_sqlite(sql::UNBLOCK), params![player, other])?,
        };
        Ok(changed > 0)
    }

    pub(super) fn blocks_of(&self, player: &Fingerprint) -> Result<Vec<Blocked>, RecordsError> {
        let mut query = self.0.prepare_cached(&for_sqlite(sql::BLOCKS_OF))?;
        let rows = query
            .query_map(params![player], |row| {
                Ok(Blocked {
                    key: Fingerprint::new(row.get::<_, String>(0)?),
                    name: row.get(1)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    pub(super) fn blocked_between(
        &self,
        a: &Fingerprint,
        b: &Fingerprint,
    ) -> Result<bool, RecordsError> {
        let found: Option<i64> = self
            .0
            .query_row(&for_sqlite(sql::BLOCKED_BETWEEN), params![a, b], |row| {
                row.get(0)
            })
            .optional()?;
        Ok(found.is_some())
    }

    pub(super) fn blocks_among(
        &self,
        players: &[Fingerprint],
    ) -> Result<Vec<(Fingerprint, Fingerprint)>, RecordsError> {
        // The blocks of each player in turn, kept when the other is among them too: one indexed read a player
        // (an event has at most a few hundred), with no limit on the number of values in one statement.
        let among: std::collections::HashSet<&str> =
            players.iter().map(Fingerprint::as_str).collect();
        let mut query = self
            .0
            .prepare("SELECT blocked FROM blocks WHERE player = ?1")?;
        let mut found = Vec::new();
        for player in players {
            let blocked = query.query_map(params![player], |row| row.get::<_, String>(0))?;
            for other in blocked {
                let other = other?;
                if among.contains(other.as_str()) {
                    found.push((player.clone(), Fingerprint::new(other)));
                }
            }
        }
        Ok(found)
    }

    pub(super) fn add_report(&self, r: &PlayerReport) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(sql::REPORT),
            params![
                r.at,
                r.reporter.0,
                r.reporter.1,
                r.reported.0,
                r.reported.1,
                r.game,
                r.text
            ],
        )?;
        Ok(())
    }

    pub(super) fn reports(&self, count: usize) -> Result<Vec<PlayerReport>, RecordsError> {
        let mut query = self.0.prepare_cached(
            "SELECT at, reporter, reporter_name, reported, reported_name, game, text FROM reports
             ORDER BY at DESC, rowid DESC LIMIT ?1",
        )?;
        let rows = query
            .query_map(params![count as i64], |row| {
                Ok(PlayerReport {
                    at: row.get(0)?,
                    reporter: (Fingerprint::new(row.get::<_, String>(1)?), row.get(2)?),
                    reported: (Fingerprint::new(row.get::<_, String>(3)?), row.get(4)?),
                    game: row.get(5)?,
                    text: row.get(6)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    pub(super) fn ban(&self, ban: &Ban) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(sql::BAN),
            params![ban.target.stored(), ban.reason, ban.since],
        )?;
        Ok(())
    }

    pub(super) fn unban(&self, target: &BanTarget) -> Result<bool, RecordsError> {
        let gone = self
            .0
            .execute(&for_sqlite(sql::UNBAN), params![target.stored()])?;
        Ok(gone > 0)
    }

    pub(super) fn bans(&self) -> Result<Vec<Ban>, RecordsError> {
        let mut query = self.0.prepare_cached(sql::BANS)?;
        let rows = query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
            .collect::<Result<Vec<(String, String, i64)>, _>>()?;
        Ok(rows
            .into_iter()
            .filter_map(|(t, r, s)| ban_of(t, r, s))
            .collect())
    }

    pub(super) fn ban_on(
        &self,
        key: Option<&Fingerprint>,
        address: IpAddr,
    ) -> Result<Option<Ban>, RecordsError> {
        for target in targets(key, address) {
            let row: Option<(String, String, i64)> = self
                .0
                .query_row(
                    "SELECT target, reason, since FROM bans WHERE target = ?1",
                    params![target],
                    |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                )
                .optional()?;
            if let Some(ban) = row.and_then(|(t, r, s)| ban_of(t, r, s)) {
                return Ok(Some(ban));
            }
        }
        Ok(None)
    }
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// A block, kept once.
    pub(in super::super) const BLOCK: &str =
        "INSERT INTO blocks (player, blocked, blocked_name, since) VALUES ($1, $2, $3, $4)
         ON CONFLICT (player, blocked) DO NOTHING";

    /// A block lifted.
    pub(in super::super) const UNBLOCK: &str =
        "DELETE FROM blocks WHERE player = $1 AND blocked = $2";

    /// The players one player blocks, oldest first.
    pub(in super::super) const BLOCKS_OF: &str =
        "SELECT blocked, blocked_name FROM blocks WHERE player = $1 ORDER BY since, blocked";

    /// Whether either of two players blocks the other.
    pub(in super::super) const BLOCKED_BETWEEN: &str =
        "SELECT 1 FROM blocks WHERE (player = $1 AND blocked = $2) OR (player = $2 AND blocked = $1)
         LIMIT 1";

    /// A report.
    pub(in super::super) const REPORT: &str =
        "INSERT INTO reports (at, reporter, reporter_name, reported, reported_name, game, text)
         VALUES ($1, $2, $3, $4, $5, $6, $7)";

    /// A ban, or a ban's reason changed.
    pub(in super::super) const BAN: &str =
        "INSERT INTO bans (target, reason, since) VALUES ($1, $2, $3)
         ON CONFLICT (target) DO UPDATE SET reason = excluded.reason";

    /// A ban lifted.
    pub(in super::super) const UNBAN: &str = "DELETE FROM bans WHERE target = $1";

    /// Every ban, oldest first.
    pub(in super::super) const BANS: &str =
        "SELECT target, reason, since FROM bans ORDER BY since, target";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ban_target_reads_back_what_it_writes_and_refuses_anything_else() {
        for text in [
            "SHA256:abcDEF+/09=",
            "192.0.2.7",
            "2001:db8::1",
            "::ffff:192.0.2.9",
        ] {
            let target = BanTarget::parse(text).expect("reads");
            assert_eq!(BanTarget::parse(&target.stored()), Some(target));
        }
        assert_eq!(
            BanTarget::parse("::ffff:192.0.2.9"),
            BanTarget::parse("192.0.2.9")
        );
        for bad in [
            "",
            "SHA256:",
            "SHA256:a b",
            "sha1:abc",
            "host.example",
            "key",
            "192.0.2.300",
        ] {
            assert_eq!(BanTarget::parse(bad), None, "{bad:?}");
        }
    }
}
