//! Conduct in PostgreSQL: the [`Conduct`] calls (blocks, reports, bans), each a read or a write of its own.

use std::net::IpAddr;

use super::RecordsError;
use super::conduct::{self, Ban, BanTarget, Blocked, Conduct, PlayerReport, ban_of, targets};
use super::postgres::PostgresRecords;
use super::unix_now;
use crate::serve::ids::Fingerprint;

impl Conduct for PostgresRecords {
    fn set_block(
        &mut self,
        player: &Fingerprint,
        other: &Fingerprint,
        name: &str,
        on: bool,
    ) -> Result<bool, RecordsError> {
        let since = unix_now();
        self.write(|c| {
            let changed = match on {
                true => c.execute(
                    conduct::sql::BLOCK,
                    &[&player.as_str(), &other.as_str(), &name, &since],
                )?,
                false => c.execute(conduct::sql::UNBLOCK, &[&player.as_str(), &other.as_str()])?,
            };
            Ok(changed > 0)
        })
    }

    fn blocks_of(&mut self, player: &Fingerprint) -> Result<Vec<Blocked>, RecordsError> {
        self.read(|c| {
            let rows = c.query(conduct::sql::BLOCKS_OF, &[&player.as_str()])?;
            Ok(rows
                .iter()
                .map(|row| Blocked {
                    key: Fingerprint::new(row.get::<_, String>(0)),
                    name: row.get(1),
                })
                .collect())
        })
    }

    fn blocked_between(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<bool, RecordsError> {
        self.read(|c| {
            let row = c.query_opt(conduct::sql::BLOCKED_BETWEEN, &[&a.as_str(), &b.as_str()])?;
            Ok(row.is_some())
        })
    }

    fn blocks_among(
        &mut self,
        players: &[Fingerprint],
    ) -> Result<Vec<(Fingerprint, Fingerprint)>, RecordsError> {
        let keys: Vec<&str> = players.iter().map(Fingerprint::as_str).collect();
        self.read(|c| {
            let rows = c.query(
                "SELECT player, blocked FROM blocks WHERE player = ANY($1) AND blocked = ANY($1)",
                &[&keys],
            )?;
            Ok(rows
                .iter()
                .map(|row| {
                    (
                        Fingerprint::new(row.get::<_, String>(0)),
                        Fingerprint::new(row.get::<_, String>(1)),
                    )
                })
                .collect())
        })
    }

    fn add_report(&mut self, r: &PlayerReport) -> Result<(), RecordsError> {
        self.write(|c| {
            c.execute(
                conduct::sql::REPORT,
                &[
                    &r.at,
                    &r.reporter.0.as_str(),
                    &r.reporter.1,
                    &r.reported.0.as_str(),
                    &r.reported.1,
                    &r.game,
                    &r.text,
                ],
            )?;
            Ok(())
        })
    }

    fn reports(&mut self, count: usize) -> Result<Vec<PlayerReport>, RecordsError> {
        let limit = i64::try_from(count).unwrap_or(i64::MAX);
        self.read(|c| {
            let rows = c.query(
                "SELECT at, reporter, reporter_name, reported, reported_name, game, text FROM reports
                 ORDER BY at DESC LIMIT $1",
                &[&limit],
            )?;
            Ok(rows
                .iter()
                .map(|row| PlayerReport {
                    at: row.get(0),
                    reporter: (Fingerprint::new(row.get::<_, String>(1)), row.get(2)),
                    reported: (Fingerprint::new(row.get::<_, String>(3)), row.get(4)),
                    game: row.get(5),
                    text: row.get(6),
                })
                .collect())
        })
    }

    fn ban(&mut self, ban: &Ban) -> Result<(), RecordsError> {
        self.write(|c| {
            c.execute(
                conduct::sql::BAN,
                &[&ban.target.stored(), &ban.reason, &ban.since],
            )?;
            Ok(())
        })
    }

    fn unban(&mut self, target: &BanTarget) -> Result<bool, RecordsError> {
        self.write(|c| {
            let gone = c.execute(conduct::sql::UNBAN, &[&target.stored()])?;
            Ok(gone > 0)
        })
    }

    fn bans(&mut self) -> Result<Vec<Ban>, RecordsError> {
        self.read(|c| {
            let rows = c.query(conduct::sql::BANS, &[])?;
            Ok(rows
                .iter()
                .filter_map(|row| ban_of(row.get(0), row.get(1), row.get(2)))
                .collect())
        })
    }

    fn ban_on(
        &mut self,
        key: Option<&Fingerprint>,
        address: IpAddr,
    ) -> Result<Option<Ban>, RecordsError> {
        let targets = targets(key, address);
        self.read(|c| {
            let rows = c.query(
                "SELECT target, reason, since FROM bans WHERE target = ANY($1)",
                &[&targets],
            )?;
            let mut bans: Vec<Ban> = rows
                .iter()
                .filter_map(|row| ban_of(row.get(0), row.get(1), row.get(2)))
                .collect();
            // The key's ban first, as SQLite answers.
            bans.sort_by_key(|b| matches!(b.target, BanTarget::Address(_)));
            Ok(bans.into_iter().next())
        })
    }
}
