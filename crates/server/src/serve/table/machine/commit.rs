//! Commit, then show. What a step of the table changes in its game (a move, a takeback, a result, the game's
//! start) is gathered as it happens and sent to the records as one commit; nobody hears of the change until the
//! records answer that it is durable. Until then the table takes nothing else (one commit in flight a table; the
//! recorder groups the commits of every table into one transaction). When the records cannot take it, the table
//! goes back to where it stood before the step, the player who asked is told that nothing happened, and
//! everyone goes on from the game the records hold: a move a player saw is a move of the game.

use std::time::Duration;

use super::{Fingerprint, Job, RecordKey, Table, TableEffect, Update};
use crate::app::OfferKind;
use crate::game::{AnyGame, Clock, Outcome};
use crate::rules::Color;
use crate::serve::recorder::CommitError;

/// How long a table waits before it tries again by itself to write what a clock or an absence decided (a flag,
/// a forfeit) after the records could not take it.
pub(super) const RETRY_AFTER: Duration = Duration::from_secs(1);

/// How long the records may take to answer a commit before whoever asked for it is told that they are slow.
pub(super) const SLOW_COMMIT: Duration = Duration::from_secs(3);

/// Who asked for a step of the table, told when it does not happen.
pub(super) struct AskedBy {
    /// Who.
    pub(super) who: Fingerprint,
    /// Whether it was a move: a refused move puts the mover's game back, anything else is only told.
    pub(super) was_move: bool,
}

impl AskedBy {
    /// The update that tells them `why` their request did not happen.
    pub(super) fn refusal(&self, why: String) -> Update {
        match self.was_move {
            true => Update::MoveRefused(why),
            false => Update::Refused(why),
        }
    }
}

/// What the table was before a step: what it goes back to when the step's commit is not written.
pub(super) struct Before {
    game: AnyGame,
    clock: Option<Clock>,
    offer: Option<(Color, OfferKind)>,
    paused: bool,
    ended: bool,
    record: Option<RecordKey>,
    first_move_since: Option<Duration>,
}

/// What a step asked of the records, waited for before anyone hears of it.
pub(super) struct Pending {
    /// The table as it was before the step.
    before: Before,
    /// Who asked for the step: told when it does not happen.
    asked_by: Option<AskedBy>,
    /// When whoever asked is told that the records are slow to answer.
    pub(super) slow_at: Duration,
    /// Whether they have been told.
    pub(super) told_slow: bool,
}

impl Table {
    /// The table as it stands, to go back to if the next step's commit is not written.
    pub(super) fn before(&self) -> Before {
        Before {
            game: self.game.clone(),
            clock: self.clock.clone(),
            offer: self.offer,
            paused: self.paused,
            ended: self.ended,
            record: self.record,
            first_move_since: self.first_move_since,
        }
    }

    /// Whether this table's game goes into the records: a recorder, and no guest at it.
    fn recorded(&self) -> bool {
        self.records
            && self
                .seats
                .iter()
                .all(|seat| seat.as_ref().is_some_and(|seat| !seat.who.is_guest()))
    }

    /// When to write again the start of a game that is to be recorded, whose seats are both taken and whose
    /// start the records did not take (they could not be written as the second player sat): the players see
    /// the game as begun, so it is in the records before anything else happens to it, and before its node
    /// might die with it. A move made meanwhile brings the start with it.
    pub(super) fn start_deadline(&self) -> Option<Duration> {
        let unrecorded = self.record.is_none()
            && self.recorded()
            && self.game.outcome().is_none()
            && self.seats.iter().all(Option::is_some);
        unrecorded.then(|| self.retry_at.unwrap_or(self.now))
    }

    /// Adds a job about this game to the step's commit, when the game is recorded; a game whose start the
    /// records have not taken yet is started with it.
    pub(super) fn record(&mut self, job: impl FnOnce(RecordKey, &Table) -> Job) {
        if self.record.is_none() && self.recorded() {
            self.record_start();
        }
        if let (true, Some(key)) = (self.records, self.record) {
            let job = job(key, self);
            self.unsaved.push(job);
        }
    }

    /// Sends a job about this game that nobody waits for (a note of the clocks between moves).
    pub(super) fn note(&mut self, job: impl FnOnce(RecordKey, &Table) -> Job) {
        if let (true, Some(key)) = (self.records, self.record) {
            let job = job(key, self);
            self.out.push(TableEffect::Note(job));
        }
    }

    /// Whether something the people here have not seen waits for the records: nothing is shown until it is
    /// written.
    pub(super) fn unsettled(&self) -> bool {
        self.pending.is_some() || !self.unsaved.is_empty()
    }

    /// After a step: its end of the game is gathered, and what it changed is sent to the records as one commit
    /// (the table waits for the answer before it shows anything), or shown at once when nothing waits.
    /// `asked_by` is who asked for the step, to tell if it does not happen.
    pub(super) fn settle(&mut self, before: Before, asked_by: Option<AskedBy>) {
        if let Some(outcome) = self.game.outcome()
            && !self.ended
        {
            self.ended = true;
            // The end of the game ends every offer made during it: a takeback or a draw accepted now would
            // bring back or change a game the records have closed.
            self.offer = None;
            self.stage_finish(outcome);
        }
        let jobs = std::mem::take(&mut self.unsaved);
        match (self.records, jobs.is_empty()) {
            (true, false) => {
                self.out.push(TableEffect::Commit(jobs));
                self.pending = Some(Pending {
                    before,
                    asked_by,
                    slow_at: self.now + SLOW_COMMIT,
                    told_slow: false,
                });
            }
            _ => self.publish(before.ended),
        }
    }

    /// The records answered the step's commit: shown to everyone when written; else the table goes back to
    /// where it stood, and whoever asked is told; the table stops when another node runs its game now.
    pub(super) fn committed(&mut self, answer: Result<(), CommitError>) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let Pending {
            before, asked_by, ..
        } = pending;
        let error = match answer {
            Ok(()) => {
                self.retry_at = None;
                self.publish(before.ended);
                return;
            }
            Err(CommitError::NotHeld) => return self.out.push(TableEffect::Stop),
            // The step may be in the records or not: neither shown nor undone here; the game is read back
            // from the records where it is taken up next, as after a crash.
            Err(CommitError::Unknown) => {
                tracing::error!(code = %self.code, "the records may or may not have kept a step of a game; it stops here and is read back from them");
                return self.out.push(TableEffect::Stop);
            }
            Err(error) => error,
        };
        tracing::warn!(code = %self.code, %error, "a step of a game was not written; it did not happen");
        let Before {
            game,
            clock,
            offer,
            paused,
            ended,
            record,
            first_move_since,
        } = before;
        self.game = game;
        self.clock = clock;
        self.offer = offer;
        self.paused = paused;
        self.ended = ended;
        self.record = record;
        self.first_move_since = first_move_since;
        self.retry_at = Some(self.now + RETRY_AFTER);
        if let Some(asked_by) = &asked_by {
            let why = refusal(&error, asked_by.was_move);
            self.tell(&asked_by.who, asked_by.refusal(why));
        }
        // The mover's screen, which showed the move as sent, goes back to the game as it stands.
        self.publish(ended);
    }

    /// The records are slow to answer the step's commit (a database that stalls): whoever asked for it hears
    /// that it waits, rather than nothing.
    pub(super) fn commit_is_slow(&mut self) {
        let Some(pending) = self.pending.as_mut() else {
            return;
        };
        pending.told_slow = true;
        if let Some(asked_by) = &pending.asked_by {
            let what = match asked_by.was_move {
                true => "your move is played once it is saved",
                false => "it is done once it is saved",
            };
            let why = format!("the server is slow to save the game just now; {what}");
            let who = asked_by.who.clone();
            self.tell(&who, Update::Refused(why));
        }
    }

    /// Shows the table as it stands to everyone, and tells the rest of the server: the lobby's list, and when the
    /// game has just ended (it had not before the step: `was_ended`), the tournament and the players' saved games.
    fn publish(&mut self, was_ended: bool) {
        self.broadcast_state();
        if let Some(outcome) = self.game.outcome()
            && !was_ended
            && self.ended
        {
            self.report_to_event(outcome);
            self.file_for_players();
            let ratings_follow = self.read_ratings(outcome);
            self.news_for_the_absent(ratings_follow);
        }
        let listing = self.listing();
        self.out.push(TableEffect::Listing(listing));
    }

    /// A table that could not write what a clock or an absence decided waits a moment before trying again.
    pub(super) fn not_before_retry(&self, at: Option<Duration>) -> Option<Duration> {
        at.map(|at| self.retry_at.map_or(at, |retry| at.max(retry)))
    }

    /// The end of the game goes into the step's commit, with its PDN and the score for the ratings.
    fn stage_finish(&mut self, outcome: Outcome) {
        let pdn = self.pdn();
        let result = self.game.result_token(Some(outcome)).to_string();
        let black_score = match outcome {
            Outcome::Win {
                winner: Color::Black,
                ..
            } => 1.0,
            Outcome::Win { .. } => 0.0,
            Outcome::Draw { .. } => 0.5,
        };
        self.record(|key, _| Job::Finish {
            key,
            result,
            pdn,
            black_score,
        });
    }

    /// A rated game that ended with a result in the records: both players' ratings after it are read, to show
    /// each the change. Whether they are.
    fn read_ratings(&mut self, outcome: Outcome) -> bool {
        let (true, true, Some(_), [Some(black), Some(white)]) =
            (self.records, self.config.rated, self.record, &self.seats)
        else {
            return false;
        };
        if outcome.is_aborted() {
            return false;
        }
        let players = [black.who.fingerprint.clone(), white.who.fingerprint.clone()];
        let variant = self.config.game_type.to_string();
        self.out.push(TableEffect::ReadRatings { players, variant });
        true
    }

    /// Each player's own saved games keep a game that has ended, for `:load` (sent once it is in the records).
    fn file_for_players(&mut self) {
        let (true, Some(_)) = (self.records, self.record) else {
            return;
        };
        // A game called off has nothing to keep.
        if self.game.outcome().is_some_and(|o| o.is_aborted()) {
            return;
        }
        let players = self.seats.iter().flatten().map(|s| s.who.clone()).collect();
        let names: Vec<&str> = self
            .seats
            .iter()
            .flatten()
            .map(|s| s.who.name.as_str())
            .collect();
        let file = Job::File {
            players,
            game: Box::new(self.tagged_game()),
            name: format!("table {} {}", self.code, names.join(" vs ")),
        };
        self.out.push(TableEffect::Note(file));
    }
}

/// What the player who asked for a step that was not written is told.
fn refusal(error: &CommitError, was_move: bool) -> String {
    let what = match was_move {
        true => "your move was not played",
        false => "nothing was changed",
    };
    match error {
        CommitError::Unwritable => format!(
            "the server cannot save moves right now; {what}. Play resumes by itself once it can."
        ),
        error => format!("{error}; {what}"),
    }
}
