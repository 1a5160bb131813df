//! Tournaments in PostgreSQL: the [`Records`](super::Records) calls about events, written against a client.

use postgres::{Client, Row};

use super::RecordsError;
use super::events::{
    EntryRecord, EventChange, EventKind, EventRecord, EventSpec, PairingRecord, Stage,
    parse_result, result_str,
};
use super::events::{EventRecords, sql};
use super::postgres::PostgresRecords;
use super::postgres_games as games;
use crate::serve::event_rules::Pairing;
use crate::serve::ids::{Fingerprint, GameId, TableCode, event_key};

/// A value that did not read as the records write it.
fn bad(what: &str) -> RecordsError {
    RecordsError::Unreadable(format!("a tournament {what}"))
}

fn small(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn spec_of(row: &Row) -> Result<(EventSpec, Stage), RecordsError> {
    let kind: String = row.try_get(2)?;
    let stage: String = row.try_get(11)?;
    Ok((
        EventSpec {
            code: TableCode::new(row.try_get::<_, String>(0)?),
            name: row.try_get(1)?,
            kind: EventKind::parse(&kind).ok_or_else(|| bad("kind"))?,
            variant: row.try_get(3)?,
            clock: row.try_get(4)?,
            rated: row.try_get(5)?,
            open: row.try_get(6)?,
            starts: row.try_get(7)?,
            seconds: small(row.try_get(8)?),
            rounds: small(row.try_get(9)?),
            created_by: row.try_get::<_, Option<String>>(10)?.map(Fingerprint::new),
        },
        Stage::parse(&stage).ok_or_else(|| bad("stage"))?,
    ))
}

/// Records a new event, waiting to start.
pub(super) fn create(c: &mut Client, spec: &EventSpec) -> Result<(), RecordsError> {
    c.execute(
        sql::CREATE,
        &[
            &spec.code.as_str(),
            &spec.name,
            &spec.kind.as_str(),
            &spec.variant,
            &spec.clock,
            &spec.rated,
            &spec.open,
            &spec.starts,
            &i64::from(spec.seconds),
            &i64::from(spec.rounds),
            &spec.created_by.as_ref().map(Fingerprint::as_str),
            &Stage::Waiting.as_str(),
        ],
    )?;
    Ok(())
}

/// Records one change to an event.
pub(super) fn change(
    c: &mut Client,
    code: &TableCode,
    change: &EventChange,
) -> Result<(), RecordsError> {
    let code = code.as_str();
    match *change {
        EventChange::Entered {
            entrant,
            fingerprint,
            name,
        } => c.execute(
            sql::ENTER,
            &[&code, &i64::from(entrant), &fingerprint.as_str(), &name],
        )?,
        EventChange::Withdrawn { entrant, withdrawn } => {
            c.execute(sql::WITHDRAW, &[&code, &i64::from(entrant), &withdrawn])?
        }
        EventChange::Paired(p) => c.execute(
            sql::PAIR,
            &[
                &code,
                &i64::from(p.round),
                &i64::from(p.board),
                &i64::from(p.pairing.first),
                &i64::from(p.pairing.second),
                &p.result.map(result_str),
                &p.game.map(GameId::get),
            ],
        )?,
        EventChange::Started { round, board, game } => c.execute(
            sql::START_GAME,
            &[&code, &i64::from(round), &i64::from(board), &game.get()],
        )?,
        EventChange::Result {
            round,
            board,
            result,
        } => c.execute(
            sql::RESULT,
            &[
                &code,
                &i64::from(round),
                &i64::from(board),
                &result_str(result),
            ],
        )?,
        EventChange::Bye { round, entrant } => {
            c.execute(sql::BYE, &[&code, &i64::from(round), &i64::from(entrant)])?
        }
        EventChange::Stage(stage) => c.execute(sql::STAGE, &[&code, &stage.as_str()])?,
    };
    Ok(())
}

/// An event as kept, if there is one by that code.
pub(super) fn read(c: &mut Client, code: &TableCode) -> Result<Option<EventRecord>, RecordsError> {
    let code = code.as_str();
    let Some(row) = c.query_opt(sql::READ, &[&code])? else {
        return Ok(None);
    };
    let (spec, stage) = spec_of(&row)?;
    let mut entries = Vec::new();
    for row in c.query(sql::ENTRIES, &[&code])? {
        entries.push(EntryRecord {
            entrant: small(row.try_get(0)?),
            fingerprint: Fingerprint::new(row.try_get::<_, String>(1)?),
            name: row.try_get(2)?,
            withdrawn: row.try_get(3)?,
        });
    }
    let mut pairings = Vec::new();
    for row in c.query(sql::PAIRINGS, &[&code])? {
        let result: Option<String> = row.try_get(4)?;
        pairings.push(PairingRecord {
            round: small(row.try_get(0)?),
            board: small(row.try_get(1)?),
            pairing: Pairing {
                first: small(row.try_get(2)?),
                second: small(row.try_get(3)?),
            },
            result: match result {
                Some(text) => Some(parse_result(&text).ok_or_else(|| bad("result"))?),
                None => None,
            },
            game: row.try_get::<_, Option<i64>>(5)?.map(GameId::new),
        });
    }
    let mut byes = Vec::new();
    for row in c.query(sql::BYES, &[&code])? {
        byes.push((small(row.try_get(0)?), small(row.try_get(1)?)));
    }
    Ok(Some(EventRecord {
        spec,
        stage,
        entries,
        pairings,
        byes,
    }))
}

/// Every event kept, by start time.
pub(super) fn list(c: &mut Client) -> Result<Vec<(EventSpec, Stage)>, RecordsError> {
    c.query(sql::LIST, &[])?.iter().map(spec_of).collect()
}

/// The PDN of an event's finished games, in the order they were paired.
pub(super) fn games(c: &mut Client, code: &TableCode) -> Result<Vec<String>, RecordsError> {
    let rows = c.query(sql::GAMES, &[&code.as_str()])?;
    rows.iter().map(|row| Ok(row.try_get(0)?)).collect()
}

/// The pairings whose result is not kept and whose game has ended, with the game's result.
pub(super) fn games_ended(
    c: &mut Client,
    code: &TableCode,
) -> Result<Vec<(u32, u32, String)>, RecordsError> {
    let rows = c.query(sql::GAMES_ENDED, &[&code.as_str()])?;
    rows.iter()
        .map(|row| {
            Ok((
                small(row.try_get(0)?),
                small(row.try_get(1)?),
                row.try_get(2)?,
            ))
        })
        .collect()
}

impl EventRecords for PostgresRecords {
    fn create_event(&mut self, spec: &EventSpec) -> Result<(), RecordsError> {
        let fence = self.fence.clone();
        self.write(|c| {
            games::fence_code(c, fence.as_ref(), &event_key(&spec.code))?;
            create(c, spec)
        })
    }

    fn change_event(&mut self, code: &TableCode, change: &EventChange) -> Result<(), RecordsError> {
        let fence = self.fence.clone();
        self.write(|c| {
            games::fence_code(c, fence.as_ref(), &event_key(code))?;
            self::change(c, code, change)
        })
    }

    // The reads are made in a transaction of their own (a write's), so that an event is read as one state.

    fn event(&mut self, code: &TableCode) -> Result<Option<EventRecord>, RecordsError> {
        self.write(|c| read(c, code))
    }

    fn events(&mut self) -> Result<Vec<(EventSpec, Stage)>, RecordsError> {
        self.write(list)
    }

    fn event_games(&mut self, code: &TableCode) -> Result<Vec<String>, RecordsError> {
        self.write(|c| games(c, code))
    }

    fn event_games_ended(
        &mut self,
        code: &TableCode,
    ) -> Result<Vec<(u32, u32, String)>, RecordsError> {
        self.write(|c| games_ended(c, code))
    }
}
