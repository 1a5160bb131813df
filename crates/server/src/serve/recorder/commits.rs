//! Commits: jobs that are written together or not at all, and answered once their transaction is durable. A
//! table sends what its players will see (a move, a takeback, a result) as one, and shows it only once answered.

use std::time::Instant;

use thiserror::Error;
use tokio::sync::oneshot;

use super::Job;
use crate::serve::records::RecordsError;

/// Why a commit was not written. Whatever the reason, nothing of it is in the records.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommitError {
    /// The disk or the database cannot take writes just now (full, read-only, gone): worth trying again later.
    #[error("the server cannot save moves right now")]
    Unwritable,
    /// The records refused it for good (a move at a ply that holds another, a game they do not know).
    #[error("the server's records refused it: {0}")]
    Refused(String),
    /// The game's table is not this node's any more: another node runs it now.
    #[error("this server does not run the game any more")]
    NotHeld,
    /// The connection to the records was lost as the step was committed, and they did not say in time whether
    /// they kept it: the table cannot know its own game, and stops; the game is read again from the records
    /// where it is taken up next.
    #[error("the server lost touch with its records as it saved this")]
    Unknown,
    /// The records' writer has gone (the server is stopping).
    #[error("the server is stopping")]
    Stopped,
}

impl CommitError {
    /// What the records' refusal of one of a commit's jobs means for the commit.
    pub(super) fn from_records(error: &RecordsError) -> CommitError {
        match error {
            e if e.is_storage() => CommitError::Unwritable,
            RecordsError::NotHeld { .. } => CommitError::NotHeld,
            RecordsError::CommitUnknown => CommitError::Unknown,
            e => CommitError::Refused(e.to_string()),
        }
    }
}

/// Jobs to write together or not at all, with where the answer goes.
#[derive(Debug)]
pub struct Commit {
    /// The jobs, in order.
    pub jobs: Vec<Job>,
    done: oneshot::Sender<Result<(), CommitError>>,
    /// When it was asked for: the commit latency the metrics report runs from here.
    asked: Instant,
}

/// The answer to a commit, to wait for: `Ok` once durable. A dropped sender (the writer gone) reads as
/// [`CommitError::Stopped`] through [`answer_of`].
pub type Committing = oneshot::Receiver<Result<(), CommitError>>;

impl Commit {
    /// A commit of `jobs`, and its answer to wait for.
    pub fn new(jobs: Vec<Job>) -> (Commit, Committing) {
        let (done, answer) = oneshot::channel();
        let asked = Instant::now();
        (Commit { jobs, done, asked }, answer)
    }

    /// Answers the commit (nobody may be waiting any more: a table that stopped).
    pub fn answer(self, result: Result<(), CommitError>) {
        match &result {
            Ok(()) => {
                let moves = self
                    .jobs
                    .iter()
                    .filter(|job| matches!(job, Job::Move { .. }))
                    .count();
                crate::serve::metrics::committed(moves, self.asked.elapsed());
            }
            Err(_) => crate::serve::metrics::commit_failed(),
        }
        let _ = self.done.send(result);
    }
}

/// The answer a [`Committing`] gave, the writer's going read as [`CommitError::Stopped`].
pub fn answer_of(
    received: Result<Result<(), CommitError>, oneshot::error::RecvError>,
) -> Result<(), CommitError> {
    received.unwrap_or(Err(CommitError::Stopped))
}
