//! One batch of the recorder's jobs written in one transaction: each commit whole or not at all (one the records
//! refuse for good is taken out and the transaction made again without it), the other jobs in order, the
//! players' filings beside it; and what is to be tried again when the disk cannot take it.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::mpsc;

use thiserror::Error;
use tokio::sync::mpsc as tokio_mpsc;

use super::filing::{OnFiled, file_for_players};
use super::{Commit, CommitError, Job, RecordKey};
use crate::serve::ids::{GameId, TableCode};
use crate::serve::records::{EventChange, FinishedGame, NewGame, Records, RecordsError};

/// Writes `batch` in one transaction; the jobs the disk could not take (all of the batch's records jobs, when
/// it fails, as its transaction is rolled back, and the filings that failed), to be tried again in order, and
/// the flushes to answer. A job that can never be written (a move of a game the records do not know) is logged
/// and let go. Each commit is answered: written once the transaction is, else why not; a commit the records
/// refuse for good is taken out and the transaction made again without it, so that none is written in part.
pub(super) fn write_batch(
    records: &mut dyn Records,
    games: &mut HashMap<RecordKey, GameId>,
    fenced: &mut HashSet<RecordKey>,
    lost: &tokio_mpsc::UnboundedSender<TableCode>,
    players: Option<&Path>,
    filed: &OnFiled,
    batch: Vec<Job>,
) -> Batch {
    let before = games.clone();
    let mut flushed = Vec::new();
    let mut reads = Vec::new();
    let mut writes: Vec<Job> = Vec::new();
    let mut filings_left: Vec<Job> = Vec::new();
    for job in batch {
        match job {
            Job::Flush(done) => flushed.push(done),
            Job::Ratings(read) => reads.push(read),
            Job::File {
                players: people,
                game,
                name,
            } => {
                let left = file_for_players(players, filed, &people, &game, &name);
                if !left.is_empty() {
                    filings_left.push(Job::File {
                        players: left,
                        game,
                        name,
                    });
                }
            }
            job => writes.push(job),
        }
    }
    // Which jobs can never be written (each logged as it fails): let go rather than tried again.
    let mut hopeless = vec![false; writes.len()];
    // The commits the records refused for good, with why: left out of the transaction.
    let mut refusals: Vec<Option<CommitError>> = vec![None; writes.len()];
    // The games refused as not this node's, with their tables' codes.
    let mut refused: Vec<(RecordKey, Option<TableCode>)> = Vec::new();
    let done = loop {
        *games = before.clone();
        let mut given_up = false;
        let attempt = records.all_or_nothing(&mut |records| {
            hopeless.fill(false);
            for (index, job) in writes.iter().enumerate() {
                if refusals[index].is_some() {
                    continue;
                }
                if let Job::Commit(commit) = job {
                    match write_commit(records, games, fenced, &mut refused, commit) {
                        Ok(()) => continue,
                        Err(e) if e.is_storage() => return Err(e),
                        Err(e) => {
                            tracing::error!(error = %e, jobs = ?commit.jobs, "a commit refused by the records");
                            refusals[index] = Some(CommitError::from_records(&e));
                            given_up = true;
                            return Err(RecordsError::GivenUp);
                        }
                    }
                }
                hopeless[index] = !write_one(records, games, fenced, &mut refused, job)?;
            }
            Ok(())
        });
        match attempt {
            Err(_) if given_up => continue,
            done => break done,
        }
    };
    // Refused whether the batch is kept or not: the table stops here either way, reported once.
    for (key, code) in refused {
        if fenced.insert(key)
            && let Some(code) = code
        {
            let _ = lost.send(code);
        }
    }
    let failure = done.as_ref().err().map(CommitError::from_records);
    if let Err(e) = &done {
        tracing::debug!(error = %e, "a batch of the records is kept to be tried again");
        *games = before;
    }
    let mut unwritten = Vec::new();
    for ((job, hopeless), refusal) in writes.into_iter().zip(hopeless).zip(refusals) {
        match job {
            Job::Commit(commit) => commit.answer(match (refusal, &failure) {
                (Some(why), _) => Err(why),
                (None, Some(why)) => Err(why.clone()),
                (None, None) => Ok(()),
            }),
            job if failure.is_some() && !hopeless => unwritten.push(job),
            _ => {}
        }
    }
    if failure.is_some() {
        // The players' folders are on the same disk: their filings wait with the records. (When the records
        // are written and a filing alone fails, that folder's own trouble is logged and not tried again.)
        unwritten.extend(filings_left);
    }
    // After the transaction: what a read asks for was written before it was asked.
    for read in reads {
        read.answer(records);
    }
    Batch {
        written: failure.is_none(),
        unwritten,
        flushed,
    }
}

/// How a batch went.
pub(super) struct Batch {
    /// Whether its transaction was written.
    pub(super) written: bool,
    /// The jobs to try again, in order (none when it was written).
    pub(super) unwritten: Vec<Job>,
    /// The flushes to answer.
    pub(super) flushed: Vec<mpsc::Sender<()>>,
}

/// Writes one job that is not a commit inside the batch's transaction: whether it was written (`false` when it
/// can never be, logged), or the disk's trouble, which fails the whole batch.
fn write_one(
    records: &mut dyn Records,
    games: &mut HashMap<RecordKey, GameId>,
    fenced: &HashSet<RecordKey>,
    refused: &mut Vec<(RecordKey, Option<TableCode>)>,
    job: &Job,
) -> Result<bool, RecordsError> {
    let key = job.key();
    if key.is_some_and(|key| fenced.contains(&key) || refused.iter().any(|(k, _)| *k == key)) {
        // The table stops (or has stopped) here: what it sent meanwhile is not this node's to write.
        tracing::debug!(
            ?job,
            "a job of a table that is not this node's any more is let go"
        );
        return Ok(false);
    }
    match write(records, games, job) {
        Ok(()) => Ok(true),
        // The disk's trouble: the whole batch waits, and is tried again.
        Err(WriteError::Records(e)) if e.is_storage() => Err(e),
        Err(WriteError::Records(RecordsError::NotHeld { code })) => {
            tracing::error!(
                code = code.as_ref().map_or("", TableCode::as_str),
                ?job,
                "a game's write refused: its table is not this node's any more"
            );
            if let Some(key) = key {
                note_refused(refused, key, code);
            }
            Ok(false)
        }
        Err(e) => {
            tracing::error!(error = %e, ?job, "cannot write the records");
            Ok(false)
        }
    }
}

/// Writes a commit's jobs in order inside the batch's transaction; the first error stops it (the caller rolls
/// the transaction back, so that nothing of it stays).
fn write_commit(
    records: &mut dyn Records,
    games: &mut HashMap<RecordKey, GameId>,
    fenced: &HashSet<RecordKey>,
    refused: &mut Vec<(RecordKey, Option<TableCode>)>,
    commit: &Commit,
) -> Result<(), RecordsError> {
    for job in &commit.jobs {
        let key = job.key();
        if let Some(key) = key
            && let Some(code) = fenced.contains(&key).then_some(None).or_else(|| {
                refused
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, c)| c.clone())
            })
        {
            return Err(RecordsError::NotHeld { code });
        }
        match write(records, games, job) {
            Ok(()) => {}
            Err(WriteError::Records(RecordsError::NotHeld { code })) => {
                if let Some(key) = key {
                    note_refused(refused, key, code.clone());
                }
                return Err(RecordsError::NotHeld { code });
            }
            Err(WriteError::Records(e)) => return Err(e),
            Err(WriteError::UnknownGame) => {
                return Err(RecordsError::Unreadable(
                    "a game the records were not told of".into(),
                ));
            }
        }
    }
    Ok(())
}

/// Notes that the records refused `key`'s game as not this node's (once).
fn note_refused(
    refused: &mut Vec<(RecordKey, Option<TableCode>)>,
    key: RecordKey,
    code: Option<TableCode>,
) {
    if !refused.iter().any(|(k, _)| *k == key) {
        refused.push((key, code));
    }
}

/// Why a job was not written.
#[derive(Debug, Error)]
enum WriteError {
    /// The records could not take it.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// A job about a game the records were never told of.
    #[error("a game the records were not told of")]
    UnknownGame,
}

fn write(
    records: &mut dyn Records,
    games: &mut HashMap<RecordKey, GameId>,
    job: &Job,
) -> Result<(), WriteError> {
    let id = |key: &RecordKey| games.get(key).copied().ok_or(WriteError::UnknownGame);
    match job {
        Job::Seen(identity) => records.seen(identity)?,
        Job::News { player, text } => records.add_news(player, text)?,
        Job::EventCreated {
            creator,
            address,
            at,
        } => records.note_creation(creator, address.as_deref(), *at)?,
        Job::Start {
            key,
            variant,
            black,
            white,
            rated,
            clock,
            code,
            definition,
        } => {
            records.seen(black)?;
            records.seen(white)?;
            let id = records.start_game(&NewGame {
                variant,
                black: &black.fingerprint,
                white: &white.fingerprint,
                rated: *rated,
                clock,
                code,
                definition: definition.as_deref(),
            })?;
            games.insert(*key, id);
        }
        Job::Resume { key, id } => {
            games.insert(*key, *id);
        }
        Job::Move {
            key,
            ply,
            text,
            clocks,
        } => records.add_move(id(key)?, *ply, text, *clocks)?,
        Job::Clocks { key, ply, clocks } => records.note_clocks(id(key)?, *ply, *clocks)?,
        Job::TakeBack { key, ply } => records.take_back(id(key)?, *ply)?,
        Job::Finish {
            key,
            result,
            pdn,
            black_score,
        } => {
            let game = id(key)?;
            games.remove(key);
            records.record_result(
                game,
                &FinishedGame {
                    result,
                    pdn,
                    black_score: *black_score,
                },
            )?;
        }
        Job::CreateEvent(spec) => records.create_event(spec)?,
        Job::Event { event, action } => records.change_event(event, &action.change())?,
        Job::EventGame {
            event,
            round,
            board,
            key,
        } => records.change_event(
            event,
            &EventChange::Started {
                round: *round,
                board: *board,
                game: id(key)?,
            },
        )?,
        // Taken apart by the batch.
        Job::Flush(_) | Job::File { .. } | Job::Commit(_) | Job::Ratings(_) => {}
        #[cfg(test)]
        Job::Tamper(_) => {}
    }
    Ok(())
}
