//! `crowned serve reports | bans | ban | unban`: the operator's side of a civil server. They work on the
//! records the settings name (the SQLite file in the data folder, or the PostgreSQL database that every node
//! shares), beside a running server: a ban is read at every sign-in, on every node, so it holds from the next
//! connection on without a restart.
//!
//! These are commands on the server's machine rather than commands an operator's key types in the game: whoever
//! runs the server already holds its records, and a ban made there needs no list of operator keys to trust.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use crowned::serve::records::conduct::{Ban, BanTarget, Conduct};
use crowned::serve::records::{Place, PostgresRecords, SqliteRecords};
use crowned::serve::text::clean_line;
use crowned::store::Store;

/// The longest reason kept for a ban, in characters (it is the line the banned client reads).
const MAX_REASON: usize = 200;

/// What the operator asks.
pub enum Asked {
    /// The latest reports.
    Reports(usize),
    /// Every ban.
    Bans,
    /// A ban of a key or an address, with its reason.
    Ban(String, String),
    /// A ban lifted.
    Unban(String),
}

/// Does what the operator asked of the records at `records` (`None`: the SQLite file in the data folder).
pub fn run(
    asked: Asked,
    records: Option<crowned::serve::records::PostgresUrl>,
) -> Result<ExitCode> {
    let place = match records {
        Some(url) => Place::Postgres(url),
        None => Place::Sqlite(
            Store::locate()
                .context("no folder for the server's files")?
                .server_dir()
                .join("records.sqlite"),
        ),
    };
    let mut records: Box<dyn Conduct> = match &place {
        Place::Sqlite(path) => {
            if !path.exists() {
                bail!("there are no records at {place}: has the server run here?");
            }
            Box::new(SqliteRecords::open(path).with_context(|| format!("cannot open {place}"))?)
        }
        Place::Postgres(url) => {
            Box::new(PostgresRecords::connect(url).with_context(|| format!("cannot open {place}"))?)
        }
    };
    match asked {
        Asked::Reports(count) => {
            let reports = records.reports(count)?;
            if reports.is_empty() {
                println!("no reports");
            }
            for r in reports {
                println!(
                    "{}  {} ({}) reported {} ({}) at game {}: {}",
                    when(r.at),
                    r.reporter.1,
                    r.reporter.0,
                    r.reported.1,
                    r.reported.0,
                    r.game,
                    r.text
                );
            }
        }
        Asked::Bans => {
            let bans = records.bans()?;
            if bans.is_empty() {
                println!("no bans");
            }
            for ban in bans {
                println!("{}  {}: {}", when(ban.since), ban.target, ban.reason);
            }
        }
        Asked::Ban(target, reason) => {
            let target = target_of(&target)?;
            let reason = clean_line(&reason, MAX_REASON);
            if reason.trim().is_empty() {
                bail!("say why: the reason is the line the banned client is given");
            }
            records.ban(&Ban {
                target: target.clone(),
                reason,
                since: crowned::serve::events::unix_now(),
            })?;
            println!("banned {target}: refused at its next sign-in on every node");
        }
        Asked::Unban(target) => {
            let target = target_of(&target)?;
            match records.unban(&target)? {
                true => println!("lifted the ban on {target}"),
                false => bail!("{target} is not banned"),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn target_of(text: &str) -> Result<BanTarget> {
    BanTarget::parse(text).with_context(|| {
        format!(
            "{:?} is neither a key's fingerprint (SHA256:..., as `ssh-keygen -l` and `crowned serve reports` \
             print it) nor an address",
            clean_line(text, 80)
        )
    })
}

/// A time in seconds since the epoch, as UTC date and time.
fn when(seconds: i64) -> String {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds.max(0).unsigned_abs());
    crowned::store::utc_minute(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_printed_as_utc_dates() {
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
        assert_eq!(when(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(when(1_796_000_000), "2026-11-30 00:53 UTC");
    }
}
