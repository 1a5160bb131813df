//! The server's records in PostgreSQL, which several servers may share.
//!
//! The client is the `postgres` crate, the blocking face of `tokio-postgres` (same maintainers, one dependency
//! tree): the [`Records`] calls block and are made from blocking threads, so a blocking client fits them, and
//! `tokio-postgres` itself stays at hand for what will need to wait asynchronously (notifications between
//! servers). The connection is not encrypted (no TLS): use a server on a trusted network, or reach it through
//! a local socket or a tunnel.
//!
//! The schema carries its version in a table of its own; connecting brings an older schema up to date, every
//! migration in one transaction under an advisory lock (two servers starting at once migrate once), and a newer
//! schema is refused rather than misread. Every write that SQLite makes atomic is a transaction here too, and a
//! result changes the ratings once even when two servers record it at once: the game's row is locked and must
//! still be in progress.
//!
//! A lost connection (the server restarted, an administrator ended it) is made again on the next call. A read
//! that failed because the connection was lost is tried again at once on the new one; a write is not, as its
//! answer may have been lost after it was kept: its error is a storage error, which the recorder tries again.

use std::time::Duration;

use postgres::{Client, NoTls};

use super::postgres_games::{self as games, Fence, Which, rating_in};
use super::schema::POSTGRES_MIGRATIONS;
use super::unix_now;
use super::{
    FinishedGame, GameRecords, NewGame, PlayerRecords, RatingRecords, Records, RecordsError,
    Standing, Unfinished,
};
use crate::config::PostgresUrl;
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, GameId, TableCode};
use crate::serve::rating::Rating;

/// The advisory lock the migrations are made under (any number, the same in every server: "crowned").
pub(crate) const MIGRATION_LOCK: i64 = 0x63_726f_776e_6564;

/// How long a connection may take to be made.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The records in a PostgreSQL database.
pub struct PostgresRecords {
    url: PostgresUrl,
    /// `None` only while dropped (see [`Drop`]).
    client: Option<Client>,
    /// Inside [`Records::all_or_nothing`]: each write is then a savepoint of the open transaction.
    in_batch: bool,
    /// The node (and its generation) whose leases fence the writes to games and events, when the records are
    /// those of one node of several.
    pub(super) fence: Option<Fence>,
}

impl PostgresRecords {
    /// Connects to the records at `url`, creating the schema or bringing an older one up to date.
    pub fn connect(url: &PostgresUrl) -> Result<PostgresRecords, RecordsError> {
        let client = connect(url)?;
        let mut records = PostgresRecords {
            url: url.clone(),
            client: Some(client),
            in_batch: false,
            fence: None,
        };
        records.migrate()?;
        Ok(records)
    }

    /// The records of the node `node`, one of several, started as `generation` ([`PostgresRecords::claim_node`]):
    /// a write to a game (its start, moves, clocks, takebacks and result) or to an event is then made only while
    /// `node` holds a live lease on the game's table (the event), and `generation` is still the node's; it is
    /// refused with [`RecordsError::NotHeld`] otherwise, the game left as it was (see `postgres_games`).
    pub fn fenced_by(mut self, node: &str, generation: i64) -> PostgresRecords {
        self.fence = Some(Fence {
            node: node.to_string(),
            generation,
        });
        self
    }

    /// Starts the node `node` on these records: its next generation, once no live process holds the name. A
    /// process that has stopped renewing within `term` (it died, or was paused) loses the name to this one, which
    /// waits out at most a term for it; one still renewing after that is another live node of the same name,
    /// and this one is refused with [`RecordsError::NodeNameLive`].
    pub fn claim_node(&mut self, node: &str, term: Duration) -> Result<i64, RecordsError> {
        let deadline = std::time::Instant::now() + term + Duration::from_secs(1);
        let mut told = false;
        loop {
            let claimed = self.write(|c| {
                Ok(c.query_opt(
                    "INSERT INTO nodes (name, seen, generation) VALUES ($1, now(), 1) \
                     ON CONFLICT (name) DO UPDATE SET seen = now(), generation = nodes.generation + 1 \
                         WHERE nodes.seen <= now() - make_interval(secs => $2) \
                     RETURNING generation",
                    &[&node, &term.as_secs_f64()],
                )?
                .map(|row| row.get::<_, i64>(0)))
            })?;
            if let Some(generation) = claimed {
                return Ok(generation);
            }
            if std::time::Instant::now() >= deadline {
                return Err(RecordsError::NodeNameLive {
                    node: node.to_string(),
                });
            }
            if !told {
                tracing::info!(
                    node,
                    "waiting for the last process named so to be silent for a lease term"
                );
                told = true;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Where the records are (shown without a password).
    pub fn url(&self) -> &PostgresUrl {
        &self.url
    }

    /// The schema version of the database.
    pub fn version(&mut self) -> Result<i64, RecordsError> {
        let client = self.client()?;
        Ok(schema_version(client)?.unwrap_or(0))
    }

    fn migrate(&mut self) -> Result<(), RecordsError> {
        let known = POSTGRES_MIGRATIONS.len() as i64;
        let client = self.client()?;
        let mut tx = client.transaction()?;
        // Two servers starting at once: the second waits here and then finds the schema up to date.
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS crowned_schema (version BIGINT NOT NULL)")?;
        let found = schema_version(&mut tx)?;
        let from = found.unwrap_or(0);
        if from > known {
            return Err(RecordsError::TooNew { found: from, known });
        }
        for sql in POSTGRES_MIGRATIONS.iter().skip(from as usize) {
            tx.batch_execute(sql)?;
        }
        match found {
            None => tx.execute(
                "INSERT INTO crowned_schema (version) VALUES ($1)",
                &[&known],
            )?,
            Some(_) => tx.execute("UPDATE crowned_schema SET version = $1", &[&known])?,
        };
        tx.commit()?;
        Ok(())
    }

    /// The connection, made again first if it was lost.
    pub(super) fn client(&mut self) -> Result<&mut Client, RecordsError> {
        let lost = self.client.as_ref().is_none_or(Client::is_closed);
        // Inside a batch a new connection would not have its transaction: the batch fails instead.
        if lost && !self.in_batch {
            tracing::warn!(records = %self.url, "the records' connection was lost: connecting again");
            self.client = Some(connect(&self.url)?);
        }
        self.client.as_mut().ok_or(RecordsError::Lost)
    }

    /// A read: tried once more on a new connection if it failed for want of one.
    pub(super) fn read<T>(
        &mut self,
        query: impl Fn(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, RecordsError> {
        let answer = query(self.client()?);
        let lost = self.client.as_ref().is_none_or(Client::is_closed);
        match answer {
            Err(e) if (lost || connection_ended(&e)) && !self.in_batch => {
                tracing::debug!(error = %e, "a read of the records is tried again on a new connection");
                // The server's last word (an administrator ended the connection) may come before the client
                // sees the connection closed: it is let go either way, so that a new one is made.
                if let Some(client) = self.client.take() {
                    let_go(client);
                }
                Ok(query(self.client()?)?)
            }
            answer => Ok(answer?),
        }
    }

    /// A write made atomic: a transaction of its own, or within a batch a savepoint, so that a write that fails
    /// in a batch is undone alone and the batch goes on (as a failed statement does in SQLite) rather than
    /// leaving the whole transaction aborted.
    pub(super) fn write<T>(
        &mut self,
        work: impl FnOnce(&mut Client) -> Result<T, RecordsError>,
    ) -> Result<T, RecordsError> {
        let (begin, keep, undo) = match self.in_batch {
            true => (
                "SAVEPOINT crowned_write",
                "RELEASE SAVEPOINT crowned_write",
                "ROLLBACK TO SAVEPOINT crowned_write",
            ),
            false => ("BEGIN", "COMMIT", "ROLLBACK"),
        };
        let client = self.client()?;
        client.batch_execute(begin)?;
        match work(client) {
            Ok(value) => {
                client.batch_execute(keep)?;
                Ok(value)
            }
            Err(e) => {
                let _ = client.batch_execute(undo);
                Err(e)
            }
        }
    }
}

impl PostgresRecords {
    /// A write to the game `game`, made atomic, behind the fence: the game's row locked and, when the records
    /// are a node's, its table's lease checked to be this node's, in the write's own transaction.
    fn game_write<T>(
        &mut self,
        game: GameId,
        work: impl FnOnce(&mut Client) -> Result<T, RecordsError>,
    ) -> Result<T, RecordsError> {
        let fence = self.fence.clone();
        self.write(|c| {
            games::fence(c, fence.as_ref(), game)?;
            work(c)
        })
    }
}

impl Drop for PostgresRecords {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let_go(client);
        }
    }
}

/// Drops a client: the blocking client owns a runtime of its own, which may not be dropped on an async thread:
/// there, it goes on a thread of its own.
fn let_go(client: Client) {
    if tokio::runtime::Handle::try_current().is_ok() {
        let _ = std::thread::Builder::new()
            .name("crowned-records-close".into())
            .spawn(move || drop(client));
    }
}

/// Whether the error says the connection has ended (closed, or ended by the server), whether or not the client
/// has seen it closed yet.
fn connection_ended(e: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    e.is_closed()
        || e.code().is_some_and(|code| {
            [SqlState::ADMIN_SHUTDOWN, SqlState::CRASH_SHUTDOWN].contains(code)
                || code.code().starts_with("08")
        })
}

impl PostgresRecords {
    /// The connection was lost (`lost`) as the transaction `transaction` was committed: asks a new connection
    /// whether the database kept it, until it answers or [`SETTLE_COMMIT_FOR`] has passed. Kept: done; rolled
    /// back: `lost`; not known in time: [`RecordsError::CommitUnknown`].
    fn settle_commit(
        &mut self,
        transaction: i64,
        lost: postgres::Error,
    ) -> Result<(), RecordsError> {
        tracing::warn!(records = %self.url, error = %lost, "the records' connection was lost as a write was committed: asking whether it was kept");
        self.client = None;
        let deadline = std::time::Instant::now() + SETTLE_COMMIT_FOR;
        loop {
            let asked = connect(&self.url).and_then(|mut client| {
                let row = client.query_one("SELECT txid_status($1)", &[&transaction])?;
                let status: Option<String> = row.get(0);
                Ok((client, status))
            });
            match asked {
                Ok((client, Some(status))) if status == "committed" => {
                    self.client = Some(client);
                    return Ok(());
                }
                Ok((client, Some(status))) if status == "aborted" => {
                    self.client = Some(client);
                    return Err(lost.into());
                }
                // Still in progress (its session has not ended yet), or the database not back: asked again.
                Ok((client, Some(_))) => self.client = Some(client),
                // Too old to be known: cannot happen a moment after the commit, and then nothing is known.
                Ok((client, None)) => {
                    self.client = Some(client);
                    return Err(RecordsError::CommitUnknown);
                }
                Err(_) => {}
            }
            if std::time::Instant::now() >= deadline {
                return Err(RecordsError::CommitUnknown);
            }
            std::thread::sleep(SETTLE_COMMIT_EVERY);
        }
    }
}

/// How long a commit whose connection was lost waits for the database to say whether it kept it.
pub const SETTLE_COMMIT_FOR: Duration = Duration::from_secs(30);

/// How often the database is asked meanwhile.
const SETTLE_COMMIT_EVERY: Duration = Duration::from_millis(250);

fn connect(url: &PostgresUrl) -> Result<Client, RecordsError> {
    let mut config = url.config().map_err(|e| RecordsError::Url(e.to_string()))?;
    config
        .connect_timeout(CONNECT_TIMEOUT)
        .application_name("crowned serve");
    Ok(config.connect(NoTls)?)
}

fn schema_version(client: &mut impl postgres::GenericClient) -> Result<Option<i64>, RecordsError> {
    let exists: bool = client
        .query_one("SELECT to_regclass('crowned_schema') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let row = client.query_opt("SELECT version FROM crowned_schema", &[])?;
    Ok(row.map(|row| row.get(0)))
}

impl PlayerRecords for PostgresRecords {
    fn seen(&mut self, identity: &Identity) -> Result<(), RecordsError> {
        let at = unix_now();
        self.write(|c| {
            c.execute(
                super::players::sql::SEEN,
                &[&identity.fingerprint.as_str(), &identity.name, &at],
            )?;
            Ok(())
        })
    }

    fn players(&mut self) -> Result<Vec<(String, Fingerprint)>, RecordsError> {
        self.read(|c| {
            let rows = c.query(super::players::sql::PLAYERS, &[])?;
            Ok(rows
                .iter()
                .map(|row| (row.get(0), Fingerprint::new(row.get::<_, String>(1))))
                .collect())
        })
    }
}

impl GameRecords for PostgresRecords {
    fn start_game(&mut self, game: &NewGame) -> Result<GameId, RecordsError> {
        let started = unix_now();
        let fence = self.fence.clone();
        self.write(|c| {
            games::fence_code(c, fence.as_ref(), game.code)?;
            let row = c.query_one(
                "INSERT INTO games (variant, black, white, rated, clock, started, code, definition)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                &[
                    &game.variant,
                    &game.black.as_str(),
                    &game.white.as_str(),
                    &game.rated,
                    &game.clock,
                    &started,
                    &game.code.as_str(),
                    &game.definition,
                ],
            )?;
            Ok(GameId::new(row.get(0)))
        })
    }

    fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        text: &str,
        clocks: Option<[u64; 2]>,
    ) -> Result<(), RecordsError> {
        self.game_write(game, |c| games::add_move(c, game, ply, text, clocks))
    }

    fn note_clocks(
        &mut self,
        game: GameId,
        ply: usize,
        clocks: [u64; 2],
    ) -> Result<(), RecordsError> {
        self.game_write(game, |c| games::note_clocks(c, game, ply, clocks))
    }

    fn take_back(&mut self, game: GameId, ply: usize) -> Result<(), RecordsError> {
        self.game_write(game, |c| games::take_back(c, game, ply))
    }

    fn record_result(&mut self, game: GameId, result: &FinishedGame) -> Result<(), RecordsError> {
        let ended = unix_now();
        self.game_write(game, |c| games::record_result(c, game, result, ended))
    }

    fn moves(&mut self, game: GameId) -> Result<Vec<String>, RecordsError> {
        self.read(|c| games::moves_of(c, game))
    }

    fn unfinished(&mut self) -> Result<Vec<GameId>, RecordsError> {
        self.read(|c| {
            let rows = c.query(super::games::sql::UNFINISHED, &[])?;
            Ok(rows.iter().map(|row| GameId::new(row.get(0))).collect())
        })
    }

    fn unfinished_codes(&mut self) -> Result<Vec<TableCode>, RecordsError> {
        self.read(|c| {
            let rows = c.query(super::games::sql::UNFINISHED_CODES, &[])?;
            Ok(rows
                .iter()
                .map(|row| TableCode::new(row.get::<_, String>(0)))
                .collect())
        })
    }

    fn unfinished_games(&mut self) -> Result<Vec<Unfinished>, RecordsError> {
        self.read(|c| games::unfinished_where(c, &Which::All))
    }

    fn unfinished_games_of(
        &mut self,
        player: &Fingerprint,
    ) -> Result<Vec<Unfinished>, RecordsError> {
        self.read(|c| games::unfinished_where(c, &Which::Of(player)))
    }

    fn unfinished_game(&mut self, code: &TableCode) -> Result<Option<Unfinished>, RecordsError> {
        let found = self.read(|c| games::unfinished_where(c, &Which::Code(code)))?;
        Ok(found.into_iter().next())
    }

    fn finished_games(&mut self) -> Result<Vec<(String, String)>, RecordsError> {
        self.read(|c| {
            let rows = c.query(super::games::sql::FINISHED, &[])?;
            Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
        })
    }

    fn games_of(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError> {
        self.read(|c| {
            let rows = c.query(super::games::sql::GAMES_OF, &[&player.as_str()])?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    // An event's writes are fenced by its lease, as a game's by its table's: a node that lost the event (a pause,
    // a partition) writes nothing more to it.
}

impl RatingRecords for PostgresRecords {
    fn rating(
        &mut self,
        player: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError> {
        self.read(|c| rating_in(c, player, variant))
    }

    fn leaderboard(&mut self, variant: &str, count: usize) -> Result<Vec<Standing>, RecordsError> {
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        self.read(|c| {
            let rows = c.query(super::ratings::sql::LEADERBOARD, &[&variant, &count])?;
            Ok(rows
                .iter()
                .map(|row| Standing {
                    name: row.get(0),
                    rating: Rating {
                        rating: row.get(1),
                        deviation: row.get(2),
                        volatility: row.get(3),
                    },
                    games: row.get(4),
                })
                .collect())
        })
    }
}

impl Records for PostgresRecords {
    fn all_or_nothing(
        &mut self,
        writes: &mut dyn FnMut(&mut dyn Records) -> Result<(), RecordsError>,
    ) -> Result<(), RecordsError> {
        let client = self.client()?;
        // The transaction's number, to ask of its fate if the connection is lost as it commits: asked with the
        // BEGIN, in the same round trip.
        let numbered = client
            .simple_query("BEGIN; SELECT txid_current()")
            .map_err(RecordsError::from)
            .and_then(|messages| {
                messages
                    .into_iter()
                    .find_map(|message| match message {
                        postgres::SimpleQueryMessage::Row(row) => row.get(0)?.parse::<i64>().ok(),
                        _ => None,
                    })
                    .ok_or_else(|| {
                        RecordsError::Unreadable("a transaction without a number".into())
                    })
            });
        let transaction = match numbered {
            Ok(transaction) => transaction,
            Err(e) => {
                // Nothing written yet: the transaction, if it began, ends here rather than with the next batch.
                let _ = client.batch_execute("ROLLBACK");
                return Err(e);
            }
        };
        self.in_batch = true;
        let done = writes(self);
        self.in_batch = false;
        let client = self.client.as_mut().ok_or(RecordsError::Lost)?;
        match done {
            Ok(()) => match client.batch_execute("COMMIT") {
                Ok(()) => Ok(()),
                // No answer to the COMMIT: the database may have kept the transaction or not. It is asked,
                // once it answers again, rather than guessed: a write said to be lost that was kept would
                // be shown to nobody and then found in the records.
                Err(e) if e.as_db_error().is_none() || connection_ended(&e) => {
                    self.settle_commit(transaction, e)
                }
                Err(e) => Err(e.into()),
            },
            Err(e) => {
                let _ = client.batch_execute("ROLLBACK");
                Err(e)
            }
        }
    }
}
