//! Copying a server's records from its SQLite file into a PostgreSQL database (`crowned serve
//! migrate-records`): players, games with their moves, clocks, definitions, results and PDN, ratings, and
//! tournaments with their entrants, pairings and byes, and the problem trainer's ratings and attempts, each as
//! it stands, game numbers kept.

use std::path::Path;

use rusqlite::params;
use thiserror::Error;

use super::{PostgresRecords, PostgresUrl, RecordsError, SqliteRecords};

/// How much was copied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// Players.
    pub players: u64,
    /// Games, finished or not.
    pub games: u64,
    /// Their moves.
    pub moves: u64,
    /// Clocks noted between moves.
    pub clocks: u64,
    /// Ratings (one a player and variant).
    pub ratings: u64,
    /// Tournaments, with their entrants, pairings and byes.
    pub tournaments: u64,
    /// Attempts at problems, with the players' and problems' problem ratings.
    pub problem_attempts: u64,
    /// Blocks, reports and bans.
    pub conduct: u64,
    /// News waiting for players, events created (for the daily caps) and browsers linked to keys.
    pub more: u64,
}

/// Why the records were not copied.
#[derive(Debug, Error)]
pub enum MigrateError {
    /// No SQLite file there (one would be made empty rather than read).
    #[error("no records file {0}")]
    NoFile(String),
    /// The database already has records: copying would mix two servers' games.
    #[error(
        "{url} already has records ({players} players, {games} games): copy into an empty database"
    )]
    NotEmpty {
        /// Where (without a password).
        url: String,
        /// Players there.
        players: i64,
        /// Games there.
        games: i64,
    },
    /// Either side's records failed.
    #[error(transparent)]
    Records(#[from] RecordsError),
}

impl From<rusqlite::Error> for MigrateError {
    fn from(e: rusqlite::Error) -> MigrateError {
        MigrateError::Records(e.into())
    }
}

impl From<::postgres::Error> for MigrateError {
    fn from(e: ::postgres::Error) -> MigrateError {
        MigrateError::Records(e.into())
    }
}

/// The players an SQLite records file knows (whose folders `migrate-records` copies too).
pub fn players_of(from: &Path) -> Result<Vec<crate::serve::Identity>, MigrateError> {
    if !from.is_file() {
        return Err(MigrateError::NoFile(from.display().to_string()));
    }
    let source = SqliteRecords::open(from)?;
    let mut rows = source
        .db
        .prepare("SELECT fingerprint, name FROM players ORDER BY fingerprint")?;
    let players = rows
        .query_map(params![], |row| {
            Ok(crate::serve::Identity {
                fingerprint: row.get::<_, String>(0)?.into(),
                name: row.get(1)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(players)
}

/// Copies the records of the SQLite file `from` (brought up to date first) into the PostgreSQL database `to`,
/// which must have none: all in one transaction, so that a copy that fails leaves the database as it was.
pub fn sqlite_to_postgres(from: &Path, to: &PostgresUrl) -> Result<Copied, MigrateError> {
    if !from.is_file() {
        return Err(MigrateError::NoFile(from.display().to_string()));
    }
    let source = SqliteRecords::open(from)?;
    let mut target = PostgresRecords::connect(to)?;
    // One read transaction: a snapshot of the file, even if a server writes it meanwhile.
    let db = source.db.unchecked_transaction()?;
    let mut tx = target.client()?.transaction()?;
    // Nobody else writes while the copy is made and checked.
    tx.batch_execute(
        "LOCK TABLE players, games, moves, clocks, ratings, tournaments IN EXCLUSIVE MODE",
    )?;
    let players: i64 = tx.query_one("SELECT count(*) FROM players", &[])?.get(0);
    let games: i64 = tx.query_one("SELECT count(*) FROM games", &[])?.get(0);
    if players > 0 || games > 0 {
        return Err(MigrateError::NotEmpty {
            url: to.to_string(),
            players,
            games,
        });
    }
    let copied = Copied {
        players: copy_rows(&db, &mut tx, &PLAYERS)?,
        games: copy_games(&db, &mut tx)?,
        moves: copy_rows(&db, &mut tx, &MOVES)?,
        clocks: copy_rows(&db, &mut tx, &CLOCKS)?,
        ratings: copy_rows(&db, &mut tx, &RATINGS)?,
        tournaments: copy_events(&db, &mut tx)?,
        problem_attempts: copy_problems(&db, &mut tx)?,
        conduct: copy_rows(&db, &mut tx, &CONDUCT)?,
        more: copy_rows(&db, &mut tx, &MORE)?,
    };
    tx.commit()?;
    Ok(copied)
}

/// Copies the games, numbered as they were, and has the new ones numbered after them.
fn copy_games(
    db: &rusqlite::Connection,
    tx: &mut ::postgres::Transaction<'_>,
) -> Result<u64, MigrateError> {
    let insert = tx.prepare(
        "INSERT INTO games (id, variant, black, white, rated, clock, started, ended, result, pdn, code, definition)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )?;
    // One game in progress per code, as the nodes' records hold (a server that ran alone may have let a code
    // be taken again while an abandoned game kept it): the newest keeps it, the older ones lose it.
    let mut rows = db.prepare(
        "SELECT id, variant, black, white, rated, clock, started, ended, result, pdn,
                CASE WHEN ended IS NULL AND code IS NOT NULL
                          AND id <> (SELECT max(id) FROM games AS newer
                                     WHERE newer.code = games.code AND newer.ended IS NULL)
                     THEN NULL ELSE code END,
                definition
         FROM games ORDER BY id",
    )?;
    let mut rows = rows.query(params![])?;
    let mut count = 0;
    while let Some(row) = rows.next()? {
        let (id, variant, black, white, rated, clock): (i64, String, String, String, bool, String) = (
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
            row.get(5)?,
        );
        let (started, ended): (i64, Option<i64>) = (row.get(6)?, row.get(7)?);
        let [result, pdn, code, definition]: [Option<String>; 4] =
            [row.get(8)?, row.get(9)?, row.get(10)?, row.get(11)?];
        tx.execute(
            &insert,
            &[
                &id,
                &variant,
                &black,
                &white,
                &rated,
                &clock,
                &started,
                &ended,
                &result,
                &pdn,
                &code,
                &definition,
            ],
        )?;
        count += 1;
    }
    // New games are numbered after the copied ones.
    tx.batch_execute(
        "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM games), false)",
    )?;
    Ok(count)
}

/// Copies the tournaments with their entrants, pairings and byes; how many tournaments.
fn copy_events(
    db: &rusqlite::Connection,
    tx: &mut ::postgres::Transaction<'_>,
) -> Result<u64, MigrateError> {
    let mut count = 0;
    let insert = tx.prepare(
        "INSERT INTO tournaments (code, name, kind, variant, clock, rated, open, starts, seconds, rounds,
         created_by, stage) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )?;
    let mut rows = db.prepare(
        "SELECT code, name, kind, variant, clock, rated, open, starts, seconds, rounds, created_by, stage
         FROM tournaments",
    )?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let [code, name, kind, variant, clock]: [String; 5] = [
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
        ];
        let (rated, open): (bool, bool) = (row.get(5)?, row.get(6)?);
        let [starts, seconds, rounds]: [i64; 3] = [row.get(7)?, row.get(8)?, row.get(9)?];
        let (created_by, stage): (Option<String>, String) = (row.get(10)?, row.get(11)?);
        tx.execute(
            &insert,
            &[
                &code,
                &name,
                &kind,
                &variant,
                &clock,
                &rated,
                &open,
                &starts,
                &seconds,
                &rounds,
                &created_by,
                &stage,
            ],
        )?;
        count += 1;
    }
    let insert = tx.prepare(
        "INSERT INTO tournament_entries (code, entrant, fingerprint, name, withdrawn) VALUES ($1, $2, $3, $4, $5)",
    )?;
    let mut rows =
        db.prepare("SELECT code, entrant, fingerprint, name, withdrawn FROM tournament_entries")?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let (code, entrant, fingerprint, name, withdrawn): (String, i64, String, String, bool) = (
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
        );
        tx.execute(&insert, &[&code, &entrant, &fingerprint, &name, &withdrawn])?;
    }
    let insert = tx.prepare(
        "INSERT INTO tournament_pairings (code, round, board, first, second, result, game)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )?;
    let mut rows = db.prepare(
        "SELECT code, round, board, first, second, result, game FROM tournament_pairings",
    )?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let code: String = row.get(0)?;
        let [round, board, first, second]: [i64; 4] =
            [row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?];
        let (result, game): (Option<String>, Option<i64>) = (row.get(5)?, row.get(6)?);
        tx.execute(
            &insert,
            &[&code, &round, &board, &first, &second, &result, &game],
        )?;
    }
    let insert =
        tx.prepare("INSERT INTO tournament_byes (code, round, entrant) VALUES ($1, $2, $3)")?;
    let mut rows = db.prepare("SELECT code, round, entrant FROM tournament_byes")?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let (code, round, entrant): (String, i64, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        tx.execute(&insert, &[&code, &round, &entrant])?;
    }
    Ok(count)
}

/// Copies the players' and problems' problem ratings and every attempt; how many attempts.
fn copy_problems(
    db: &rusqlite::Connection,
    tx: &mut ::postgres::Transaction<'_>,
) -> Result<u64, MigrateError> {
    let insert = tx.prepare(
        "INSERT INTO player_problem_ratings (fingerprint, rating, deviation, volatility, attempts, solved,
         best_streak) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )?;
    let mut rows = db.prepare(
        "SELECT fingerprint, rating, deviation, volatility, attempts, solved, best_streak
         FROM player_problem_ratings",
    )?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let fingerprint: String = row.get(0)?;
        let [rating, deviation, volatility]: [f64; 3] = [row.get(1)?, row.get(2)?, row.get(3)?];
        let [attempts, solved, best]: [i64; 3] = [row.get(4)?, row.get(5)?, row.get(6)?];
        tx.execute(
            &insert,
            &[
                &fingerprint,
                &rating,
                &deviation,
                &volatility,
                &attempts,
                &solved,
                &best,
            ],
        )?;
    }
    let insert = tx.prepare(
        "INSERT INTO problem_ratings (problem, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, $5)",
    )?;
    let mut rows =
        db.prepare("SELECT problem, rating, deviation, volatility, attempts FROM problem_ratings")?;
    let mut rows = rows.query(params![])?;
    while let Some(row) = rows.next()? {
        let problem: String = row.get(0)?;
        let [rating, deviation, volatility]: [f64; 3] = [row.get(1)?, row.get(2)?, row.get(3)?];
        let attempts: i64 = row.get(4)?;
        tx.execute(
            &insert,
            &[&problem, &rating, &deviation, &volatility, &attempts],
        )?;
    }
    let insert = tx.prepare(
        "INSERT INTO problem_attempts (fingerprint, problem, solved, rated, at) VALUES ($1, $2, $3, $4, $5)",
    )?;
    let mut rows = db.prepare(
        "SELECT fingerprint, problem, solved, rated, at FROM problem_attempts ORDER BY rowid",
    )?;
    let mut rows = rows.query(params![])?;
    let mut count = 0;
    while let Some(row) = rows.next()? {
        let (fingerprint, problem): (String, String) = (row.get(0)?, row.get(1)?);
        let (solved, rated, at): (bool, bool, i64) = (row.get(2)?, row.get(3)?, row.get(4)?);
        tx.execute(&insert, &[&fingerprint, &problem, &solved, &rated, &at])?;
        count += 1;
    }
    Ok(count)
}

/// How a column is copied.
#[derive(Clone, Copy)]
enum Column {
    Text,
    Whole,
    /// Text, or nothing.
    MaybeText,
    /// A whole number, or nothing.
    MaybeWhole,
    /// A whole number of 32 bits (a ply).
    Small,
    /// A real number (a rating).
    Real,
}

/// Tables copied row by row, in the order written, each with its columns (an identity column is left out: the
/// database numbers the rows again, in the same order).
type Tables = [(&'static str, &'static [(&'static str, Column)])];

/// The players, before the games that name them.
const PLAYERS: [(&str, &[(&str, Column)]); 1] = [(
    "players",
    &[
        ("fingerprint", Column::Text),
        ("name", Column::Text),
        ("first_seen", Column::Whole),
        ("last_seen", Column::Whole),
    ],
)];

/// The games' moves, with the clocks as each was made.
const MOVES: [(&str, &[(&str, Column)]); 1] = [(
    "moves",
    &[
        ("game", Column::Whole),
        ("ply", Column::Small),
        ("text", Column::Text),
        ("black_ms", Column::MaybeWhole),
        ("white_ms", Column::MaybeWhole),
    ],
)];

/// The clocks noted between moves.
const CLOCKS: [(&str, &[(&str, Column)]); 1] = [(
    "clocks",
    &[
        ("game", Column::Whole),
        ("ply", Column::Small),
        ("black_ms", Column::Whole),
        ("white_ms", Column::Whole),
    ],
)];

/// The ratings, one a player and variant.
const RATINGS: [(&str, &[(&str, Column)]); 1] = [(
    "ratings",
    &[
        ("fingerprint", Column::Text),
        ("variant", Column::Text),
        ("rating", Column::Real),
        ("deviation", Column::Real),
        ("volatility", Column::Real),
        ("games", Column::Whole),
    ],
)];

/// The conduct tables: blocks, reports, bans.
const CONDUCT: [(&str, &[(&str, Column)]); 3] = [
    (
        "blocks",
        &[
            ("player", Column::Text),
            ("blocked", Column::Text),
            ("blocked_name", Column::Text),
            ("since", Column::Whole),
        ],
    ),
    (
        "reports",
        &[
            ("at", Column::Whole),
            ("reporter", Column::Text),
            ("reporter_name", Column::Text),
            ("reported", Column::Text),
            ("reported_name", Column::Text),
            ("game", Column::Text),
            ("text", Column::Text),
        ],
    ),
    (
        "bans",
        &[
            ("target", Column::Text),
            ("reason", Column::Text),
            ("since", Column::Whole),
        ],
    ),
];

/// What else the records keep for players: news waiting for them, the events they created (the daily caps
/// count them) and their linked browsers (so that a browser stays its player's across the move).
const MORE: [(&str, &[(&str, Column)]); 3] = [
    (
        "news",
        &[
            ("player", Column::Text),
            ("at", Column::Whole),
            ("text", Column::Text),
        ],
    ),
    (
        "event_creations",
        &[
            ("creator", Column::Text),
            ("address", Column::MaybeText),
            ("at", Column::Whole),
        ],
    ),
    (
        "browser_links",
        &[
            ("token_hash", Column::Text),
            ("code", Column::MaybeText),
            ("address", Column::Text),
            ("agent", Column::Text),
            ("offered_at", Column::Whole),
            ("player", Column::MaybeText),
            ("name", Column::MaybeText),
            ("linked_at", Column::MaybeWhole),
            ("used_at", Column::MaybeWhole),
        ],
    ),
];

/// Copies `tables` row by row; how many rows in all.
fn copy_rows(
    db: &rusqlite::Connection,
    tx: &mut ::postgres::Transaction<'_>,
    tables: &Tables,
) -> Result<u64, MigrateError> {
    let mut count = 0;
    for (table, columns) in tables {
        let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
        let places: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
        let insert = tx.prepare(&format!(
            "INSERT INTO {table} ({}) VALUES ({})",
            names.join(", "),
            places.join(", ")
        ))?;
        let mut rows = db.prepare(&format!(
            "SELECT {} FROM {table} ORDER BY rowid",
            names.join(", ")
        ))?;
        let mut rows = rows.query(params![])?;
        while let Some(row) = rows.next()? {
            let mut values: Vec<Box<dyn ::postgres::types::ToSql + Sync>> = Vec::new();
            for (i, (_, kind)) in columns.iter().enumerate() {
                match kind {
                    Column::Whole => values.push(Box::new(row.get::<_, i64>(i)?)),
                    Column::Text => values.push(Box::new(row.get::<_, String>(i)?)),
                    Column::MaybeWhole => values.push(Box::new(row.get::<_, Option<i64>>(i)?)),
                    Column::MaybeText => values.push(Box::new(row.get::<_, Option<String>>(i)?)),
                    Column::Small => values.push(Box::new(row.get::<_, i32>(i)?)),
                    Column::Real => values.push(Box::new(row.get::<_, f64>(i)?)),
                }
            }
            let refs: Vec<&(dyn ::postgres::types::ToSql + Sync)> =
                values.iter().map(|v| v.as_ref()).collect();
            tx.execute(&insert, &refs)?;
            count += 1;
        }
    }
    Ok(count)
}
