//! The problem trainer on the server: the same trainer as the local one, over the server's collection, in the
//! order that suits the player (near their problem rating, or easiest first for a streak) or the problem of
//! the day alone; its decisions kept in the records and its standing shown in the lobby.
//!
//! An attempt is written straight to the records from a writer of the session's own rather than through the
//! recorder: it is one small change that nothing else waits on or depends on the order of, and one that
//! cannot be written is logged and let go, as a lobby's read is.

use std::collections::HashMap;

use tokio::sync::mpsc;

use super::Shared;
use super::connected::{ConnectedPlayer, settings_of};
use super::identity::Identity;
use super::play::Channels;
use crate::app::lobby::{Lobby, ProblemsShown};
use crate::app::{App, TrainingKind, TrainingNews};
use crate::engine::EngineClient;
use crate::problems::Prover;
use crate::problems::choose::{easiest_first, nearest_first, problem_of_the_day, utc_day};
use crate::session::{self, Session};

/// How many of the trainer's decisions may wait for the records (a player makes a few a minute).
const NEWS_QUEUE: usize = 64;

/// The day it is, UTC.
fn today() -> i64 {
    utc_day(crate::serve::records::unix_now())
}

/// The problem of the day's place in the server's collection.
pub(super) fn daily_index(shared: &Shared) -> Option<usize> {
    problem_of_the_day(shared.problems.len(), today())
}

/// A player's problem standing and every problem's rating, as the records have them (a new player's and none
/// for a guest, or when they cannot be read).
async fn standing_and_ratings(
    shared: &Shared,
    identity: &Identity,
) -> (crate::serve::records::ProblemStanding, HashMap<String, f64>) {
    if identity.is_guest() {
        return Default::default();
    }
    let fingerprint = identity.fingerprint.clone();
    shared
        .read_records(move |records| {
            let standing = records.problem_standing(&fingerprint)?;
            let ratings = records.problem_ratings()?;
            Ok((
                standing,
                ratings.into_iter().map(|(k, r)| (k, r.rating)).collect(),
            ))
        })
        .await
        .unwrap_or_default()
}

/// The trainer's session for `player`, open for `kind`: its proofs answered by the server's workers (the
/// answers coming to `channels`), its decisions kept in the records for a keyed player.
pub(super) async fn trainer_session(
    player: &ConnectedPlayer,
    kind: TrainingKind,
    engine: EngineClient,
    channels: &mut Channels,
) -> Session {
    let (shared, identity) = (&*player.shared, &player.identity);
    let (standing, ratings) = standing_and_ratings(shared, identity).await;
    let collection = shared.problems.as_ref().clone();
    let problems = match kind {
        TrainingKind::Daily => daily_index(shared)
            .and_then(|i| collection.get(i).cloned())
            .into_iter()
            .collect(),
        TrainingKind::Streak => easiest_first(collection, &ratings),
        TrainingKind::Rated | TrainingKind::Free => {
            nearest_first(collection, &ratings, standing.rating.rating)
        }
    };
    // The built-in collection was proved when it was made; a move off its lines is proved with the server's
    // databases when it has them.
    let prover = Prover::new(shared.config.egdb.clone());
    let (app, effects) = App::training_for(kind, standing.best_streak, problems, prover);
    let (settings, problem) = settings_of(shared, identity);
    let (mut opened, config) =
        session::open_trainer(app, effects, &settings, problem.as_ref(), player.no_color);
    opened.settings_home = super::connected::settings_home(shared, identity);

    let (answers_tx, answers_rx) = mpsc::unbounded_channel();
    channels.proofs = answers_rx;
    let proofs = shared.provers.client(move |question, answer| {
        // The session has ended when nobody listens: the answer is not wanted.
        let _ = answers_tx.send((question, answer));
    });
    channels.trained = (!identity.is_guest()).then(|| keep_news(player));
    Session::new(opened, config, engine).with_proofs(proofs)
}

/// A writer of the trainer's decisions to the records, for as long as its sender lives.
fn keep_news(player: &ConnectedPlayer) -> mpsc::Sender<TrainingNews> {
    let (tx, mut rx) = mpsc::channel(NEWS_QUEUE);
    let shared = std::sync::Arc::clone(&player.shared);
    let identity = player.identity.clone();
    tokio::spawn(async move {
        let mut seen = false;
        while let Some(news) = rx.recv().await {
            let (fingerprint, identity) = (identity.fingerprint.clone(), identity.clone());
            let first = !seen;
            let kept = shared
                .read_records(move |records| {
                    // The player's row is written by the recorder as they connect, perhaps not yet: their
                    // attempts need it.
                    if first {
                        records.seen(&identity)?;
                    }
                    match news {
                        TrainingNews::Attempt { problem, solved } => records
                            .record_problem_attempt(&fingerprint, &problem, solved)
                            .map(|_| ()),
                        TrainingNews::Streak(length) => records
                            .note_problem_streak(&fingerprint, length)
                            .map(|_| ()),
                    }
                })
                .await;
            seen |= kept.is_some();
            if kept.is_none() {
                tracing::warn!("a problem attempt could not be kept in the records");
            }
        }
    });
    tx
}

/// Reads the player's problem standing into the lobby, with the problem of the day's title.
pub(super) async fn read_standing(player: &ConnectedPlayer, lobby: &mut Lobby) {
    let shared = &*player.shared;
    lobby.daily = daily_index(shared)
        .and_then(|i| shared.problems.get(i))
        .map(|p| p.title.clone());
    if lobby.guest {
        return;
    }
    let fingerprint = player.identity.fingerprint.clone();
    let standing = shared
        .read_records(move |records| records.problem_standing(&fingerprint))
        .await;
    if let Some(standing) = standing {
        lobby.problems = Some(ProblemsShown {
            rating: standing.rating.rating.round() as i32,
            tried: standing.attempts,
            best_streak: standing.best_streak,
        });
    }
}
