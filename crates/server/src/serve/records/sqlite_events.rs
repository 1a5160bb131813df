//! Tournaments in SQLite: the [`Records`](super::Records) calls about events, written against the connection.

use rusqlite::{Connection, OptionalExtension, params};

use super::RecordsError;
use super::events::{
    EntryRecord, EventChange, EventKind, EventRecord, EventSpec, PairingRecord, Stage,
    parse_result, result_str,
};
use super::events::{EventRecords, sql};
use super::for_sqlite;
use super::sqlite::SqliteRecords;
use crate::serve::event_rules::Pairing;
use crate::serve::ids::{Fingerprint, GameId, TableCode};

/// A column that did not read as the records write it: a file written by hand, or by a newer program.
fn bad(what: &str) -> rusqlite::Error {
    rusqlite::Error::InvalidColumnType(0, what.to_string(), rusqlite::types::Type::Text)
}

/// A number read back (the records only write numbers that fit).
fn small(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn spec_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<(EventSpec, Stage)> {
    let kind: String = row.get(2)?;
    let stage: String = row.get(11)?;
    Ok((
        EventSpec {
            code: row.get(0)?,
            name: row.get(1)?,
            kind: EventKind::parse(&kind).ok_or_else(|| bad("kind"))?,
            variant: row.get(3)?,
            clock: row.get(4)?,
            rated: row.get(5)?,
            open: row.get(6)?,
            starts: row.get(7)?,
            seconds: small(row.get(8)?),
            rounds: small(row.get(9)?),
            created_by: row.get::<_, Option<String>>(10)?.map(Fingerprint::new),
        },
        Stage::parse(&stage).ok_or_else(|| bad("stage"))?,
    ))
}

/// Records a new event, waiting to start.
pub(super) fn create(db: &Connection, spec: &EventSpec) -> Result<(), RecordsError> {
    db.execute(
        &for_sqlite(sql::CREATE),
        params![
            spec.code,
            spec.name,
            spec.kind.as_str(),
            spec.variant,
            spec.clock,
            spec.rated,
            spec.open,
            spec.starts,
            spec.seconds,
            spec.rounds,
            spec.created_by,
            Stage::Waiting.as_str()
        ],
    )?;
    Ok(())
}

/// Records one change to an event.
pub(super) fn change(
    db: &Connection,
    code: &TableCode,
    change: &EventChange,
) -> Result<(), RecordsError> {
    match *change {
        EventChange::Entered {
            entrant,
            fingerprint,
            name,
        } => db.execute(
            &for_sqlite(sql::ENTER),
            params![code, entrant, fingerprint, name],
        )?,
        EventChange::Withdrawn { entrant, withdrawn } => db.execute(
            &for_sqlite(sql::WITHDRAW),
            params![code, entrant, withdrawn],
        )?,
        EventChange::Paired(p) => db.execute(
            &for_sqlite(sql::PAIR),
            params![
                code,
                p.round,
                p.board,
                p.pairing.first,
                p.pairing.second,
                p.result.map(result_str),
                p.game
            ],
        )?,
        EventChange::Started { round, board, game } => db.execute(
            &for_sqlite(sql::START_GAME),
            params![code, round, board, game],
        )?,
        EventChange::Result {
            round,
            board,
            result,
        } => db.execute(
            &for_sqlite(sql::RESULT),
            params![code, round, board, result_str(result)],
        )?,
        EventChange::Bye { round, entrant } => {
            db.execute(&for_sqlite(sql::BYE), params![code, round, entrant])?
        }
        EventChange::Stage(stage) => {
            db.execute(&for_sqlite(sql::STAGE), params![code, stage.as_str()])?
        }
    };
    Ok(())
}

/// An event as kept, if there is one by that code.
pub(super) fn read(db: &Connection, code: &TableCode) -> Result<Option<EventRecord>, RecordsError> {
    let Some((spec, stage)) = db
        .query_row(&for_sqlite(sql::READ), params![code], spec_of)
        .optional()?
    else {
        return Ok(None);
    };
    let entries = db
        .prepare_cached(&for_sqlite(sql::ENTRIES))?
        .query_map(params![code], |row| {
            Ok(EntryRecord {
                entrant: small(row.get(0)?),
                fingerprint: row.get(1)?,
                name: row.get(2)?,
                withdrawn: row.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let pairings = db
        .prepare_cached(&for_sqlite(sql::PAIRINGS))?
        .query_map(params![code], |row| {
            let result: Option<String> = row.get(4)?;
            Ok(PairingRecord {
                round: small(row.get(0)?),
                board: small(row.get(1)?),
                pairing: Pairing {
                    first: small(row.get(2)?),
                    second: small(row.get(3)?),
                },
                result: match result {
                    Some(text) => Some(parse_result(&text).ok_or_else(|| bad("result"))?),
                    None => None,
                },
                game: row.get::<_, Option<GameId>>(5)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let byes = db
        .prepare_cached(&for_sqlite(sql::BYES))?
        .query_map(params![code], |row| {
            Ok((small(row.get(0)?), small(row.get(1)?)))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(EventRecord {
        spec,
        stage,
        entries,
        pairings,
        byes,
    }))
}

/// Every event kept, by start time.
pub(super) fn list(db: &Connection) -> Result<Vec<(EventSpec, Stage)>, RecordsError> {
    let rows = db
        .prepare_cached(&for_sqlite(sql::LIST))?
        .query_map([], spec_of)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The PDN of an event's finished games, in the order they were paired.
pub(super) fn games(db: &Connection, code: &TableCode) -> Result<Vec<String>, RecordsError> {
    let rows = db
        .prepare_cached(&for_sqlite(sql::GAMES))?
        .query_map(params![code], |row| row.get(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The pairings whose result is not kept and whose game has ended, with the game's result.
pub(super) fn games_ended(
    db: &Connection,
    code: &TableCode,
) -> Result<Vec<(u32, u32, String)>, RecordsError> {
    let rows = db
        .prepare_cached(&for_sqlite(sql::GAMES_ENDED))?
        .query_map(params![code], |row| {
            Ok((small(row.get(0)?), small(row.get(1)?), row.get(2)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

impl EventRecords for SqliteRecords {
    fn create_event(&mut self, spec: &EventSpec) -> Result<(), RecordsError> {
        create(&self.db, spec)
    }

    fn change_event(&mut self, code: &TableCode, change: &EventChange) -> Result<(), RecordsError> {
        self::change(&self.db, code, change)
    }

    fn event(&mut self, code: &TableCode) -> Result<Option<EventRecord>, RecordsError> {
        read(&self.db, code)
    }

    fn events(&mut self) -> Result<Vec<(EventSpec, Stage)>, RecordsError> {
        list(&self.db)
    }

    fn event_games(&mut self, code: &TableCode) -> Result<Vec<String>, RecordsError> {
        games(&self.db, code)
    }

    fn event_games_ended(
        &mut self,
        code: &TableCode,
    ) -> Result<Vec<(u32, u32, String)>, RecordsError> {
        games_ended(&self.db, code)
    }
}
