//! A server of several nodes, as this node's connections see it: a table looked up here or elsewhere, the tables of
//! a dead node taken over from the records (a game of an event keeping its link to the event, wherever that
//! runs), and the heartbeat that keeps this node's leases (its events' with its tables').

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use super::ids::TableCode;
use super::nodes::cluster::{Cluster, Found};
use super::nodes::{Resumption, Sweep};
use super::table::Listing;
use super::table::{Command, TableHandle};
use super::{Shared, events, metrics};

/// The game with `code`, here or on another node (taking it over first when its node has died). `Err` when the
/// other nodes' list cannot be read just now (the records are out of reach): the game may well be there.
pub(crate) async fn find(
    shared: &Shared,
    code: &TableCode,
) -> Result<Option<(TableHandle, Listing)>, Unreachable> {
    let cluster = shared.tables.cluster();
    if let Some(found) = shared.tables.find(code) {
        let Some(cluster) = cluster.filter(|cluster| !cluster.leases_sure()) else {
            return Ok(Some(found));
        };
        // This node has not renewed its leases within their term (it stalled, or the database was away):
        // another node may have taken the table over meanwhile, and nobody is seated at a table that may show an
        // old state. The leases say where it runs.
        match cluster.holds(code).await {
            Ok(true) => return Ok(Some(found)),
            Ok(false) => {
                tracing::error!(%code, "a game was taken over by another node; it stops here");
                metrics::table_lost();
                // Looked for elsewhere once it has gone: a take-over here must resume the game from the records,
                // not find this table again.
                if !stop_table(shared, &found.0, code).await {
                    return Err(Unreachable);
                }
            }
            Err(error) => {
                tracing::warn!(%error, %code, "cannot ask whether a game here is still this node's");
                return Err(Unreachable);
            }
        }
    }
    let Some(cluster) = cluster else {
        return Ok(None);
    };
    match cluster.find(code).await {
        Ok(Some(Found::Elsewhere(handle, listing))) => Ok(Some((handle, *listing))),
        Ok(Some(Found::Lapsed)) => {
            take_over(shared, cluster, code).await;
            match cluster.find(code).await {
                Ok(Some(Found::Elsewhere(handle, listing))) => Ok(Some((handle, *listing))),
                _ => Ok(shared.tables.find(code)),
            }
        }
        Ok(None) => Ok(None),
        Err(error) => {
            tracing::warn!(%error, %code, "cannot look a game up on the other nodes");
            Err(Unreachable)
        }
    }
}

/// The other nodes' list of games could not be read (the records are out of reach for now).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unreachable;

/// Takes the table `code` over from a node that has died: claims its lease (exactly one node wins) and resumes
/// its game from the records, its players away until they come back. A lease with no game in progress behind it
/// (a code reserved, or a game that ended as its node died) is given up. Whether the table is here now.
pub(crate) async fn take_over(shared: &Shared, cluster: &Arc<Cluster>, code: &TableCode) -> bool {
    match claim_and_resume(shared, cluster, code).await {
        Resumption::Here => {
            tracing::info!(%code, node = %cluster.node(), "a game taken over from a node that has gone");
            metrics::taken_over();
            true
        }
        Resumption::NotHere => false,
        Resumption::Unreadable => {
            // The lease is this node's, or free: either way no other node will resume the game, so this one
            // looks again once the records answer.
            cluster.want_sweep();
            false
        }
    }
}

/// How long past a lease's term a game whose node does not answer is looked for: the time another node takes
/// to see that the node has died and to take its games over.
pub const TAKE_OVER_MARGIN: Duration = Duration::from_secs(5);

/// How long a game (or an event) whose node does not answer is looked for before it is given up: a lease's term
/// and [`TAKE_OVER_MARGIN`] on a server of several nodes, nothing on one alone (its tables are the truth).
pub(crate) fn take_over_patience(shared: &Shared) -> Duration {
    shared
        .config
        .nodes
        .as_ref()
        .map_or(Duration::ZERO, |nodes| nodes.lease_term + TAKE_OVER_MARGIN)
}

/// Resumes here every game in progress in the records that no live node runs (this node's own from before it
/// stopped, those of nodes that have died, and those of a server that ran alone before, or a game whose take-over
/// failed halfway as the records went away); games here or listed by a live node are not asked about.
pub(crate) async fn resume_unclaimed(shared: &Shared, cluster: &Arc<Cluster>) -> Sweep {
    // A table here that ended has its result in the records first (else the records, behind, would still list its
    // game as in progress, and it would be resumed after its end); one ending from now on is told by the cluster.
    if !shared.recorder.caught_up().await {
        return Sweep::UNREAD;
    }
    // Only the codes: the games themselves are read one by one, once claimed.
    let Some(codes) = shared
        .read_records(|records| records.unfinished_codes())
        .await
    else {
        return Sweep::UNREAD;
    };
    let elsewhere: HashSet<TableCode> = cluster
        .others()
        .into_iter()
        .map(|listing| listing.code)
        .collect();
    let mut sweep = Sweep::NOTHING_LEFT;
    for code in codes {
        if shared.tables.find(&code).is_some()
            || elsewhere.contains(&code)
            || cluster.ended_here(&code)
        {
            continue;
        }
        // Read again once claimed: a node whose lease on it ran out may have written to it since.
        sweep.count(claim_and_resume(shared, cluster, &code).await);
    }
    sweep
}

/// Claims the table `code` and resumes its game here, the game in progress with that code as the records have it
/// once the claim is made (and any write its old owner was making is kept or refused: no move comes after it). A
/// claim with no game to resume is given up; a claim whose game cannot be read now is kept (renewed with this
/// node's other leases), for the game to be resumed when the records answer rather than left with no table.
async fn claim_and_resume(shared: &Shared, cluster: &Arc<Cluster>, code: &TableCode) -> Resumption {
    // A draining node hands its tables to the others (`handover`): it takes none.
    if *shared.draining.borrow() {
        return Resumption::NotHere;
    }
    match cluster.claim(code).await {
        Ok(true) => {}
        Ok(false) => return Resumption::NotHere,
        Err(error) => {
            tracing::warn!(%error, %code, "cannot claim a game in progress");
            return Resumption::Unreadable;
        }
    }
    if shared.tables.find(code).is_some() {
        return Resumption::Here;
    }
    let wanted = code.clone();
    // The game, and the event's pairing it is the game of, if it is an event's.
    let found = shared
        .read_records(move |records| {
            let Some(game) = records.unfinished_game(&wanted)? else {
                return Ok(None);
            };
            let pairing = events::across::pairing_of_game(records, game.id)?;
            Ok(Some((game, pairing)))
        })
        .await;
    let resumed = match found {
        None => return Resumption::Unreadable,
        Some(Some((game, pairing))) => {
            // Its result goes to its event wherever that runs.
            let link = pairing.map(|(spec, round, board)| {
                events::across::link_to_event(shared, &spec, round, board)
            });
            let tables = Arc::clone(&shared.tables);
            let recorder = shared.recorder.clone();
            let grace = shared.config.seat_grace;
            let opened = shared
                .read_records(move |records| {
                    Ok(
                        super::resume_linked(&tables, &recorder, records, game, grace, link)
                            .is_some(),
                    )
                })
                .await;
            match opened {
                None => return Resumption::Unreadable,
                Some(opened) => opened,
            }
        }
        Some(None) => false,
    };
    if resumed {
        return Resumption::Here;
    }
    if let Err(error) = cluster.release(code).await {
        tracing::warn!(%error, %code, "cannot give up a code");
    }
    Resumption::NotHere
}

/// How often, at the longest, a node looks through the records for games in progress that no node runs: a
/// safety net under the take-overs, which leave none when they go as they should. (Events are looked through
/// when a take-over or an outage asks.)
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// How often the heartbeat comes, as a part of the lease's term.
const BEATS_PER_TERM: u32 = 4;

/// This node's heartbeat, until the server stops: renews its leases, shares its tables' summaries, stops the
/// tables another node took over, and takes over the tables of nodes that have died. Started with the games this
/// node held before it stopped (or that no node holds), resumed here.
pub(crate) async fn heartbeat(shared: Arc<Shared>, cluster: Arc<Cluster>, term: Duration) {
    let mut shutdown = shared.shutdown.clone();
    let mut every = tokio::time::interval(term / BEATS_PER_TERM);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_sweep = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = every.tick() => {}
            () = cluster.changed() => {
                // A new table, or one that changed: the others see it now rather than at the next beat (after a
                // moment in which more changes may come, written together).
                tokio::time::sleep(Duration::from_millis(50)).await;
                if let Err(error) = cluster.flush().await {
                    tracing::warn!(%error, "cannot share a table's summary with the other nodes");
                }
                // Codes for the next tables, when many were just used.
                if let Err(error) = cluster.top_up(&shared.tables.codes()).await {
                    tracing::warn!(%error, "cannot reserve codes for new games");
                }
                continue;
            }
            _ = shutdown.changed() => return,
        }
        let beat = match cluster
            .beat(&shared.tables.codes(), &shared.events.codes_here())
            .await
        {
            Ok(beat) => beat,
            Err(error) => {
                tracing::warn!(%error, "the heartbeat cannot reach the nodes' database");
                // Take-overs may have failed halfway meanwhile: the games are looked for once it answers.
                cluster.want_sweep();
                continue;
            }
        };
        for code in &beat.lost {
            tracing::error!(%code, "a game was taken over by another node; it stops here");
            metrics::table_lost();
            if let Some((table, _)) = shared.tables.find(code) {
                table.send(Command::Yield).await;
            }
        }
        // The events first: a game taken over below finds its event here if it is to run here.
        events::across::after_beat(&shared, &cluster, &beat).await;
        for code in &beat.lapsed {
            take_over(&shared, &cluster, code).await;
        }
        release_ended(&shared, &cluster).await;
        let wanted = cluster.take_sweep();
        if wanted || last_sweep.elapsed() >= SWEEP_EVERY {
            last_sweep = tokio::time::Instant::now();
            // The events first, as on joining: a game of an event taken over here is linked to it here. They are
            // looked through only when a take-over or an outage asks (their list is every event ever held, which
            // grows with the server's age); the games' codes, in progress only, every time.
            let events = match wanted {
                true => events::across::resume_unclaimed(&shared, &cluster).await,
                false => Sweep::NOTHING_LEFT,
            };
            let games = resume_unclaimed(&shared, &cluster).await;
            if events.resumed + games.resumed > 0 {
                tracing::warn!(
                    games = games.resumed,
                    events = events.resumed,
                    node = %cluster.node(),
                    "games and events that no node ran are resumed here"
                );
            }
            if !(events.complete && games.complete) {
                cluster.want_sweep();
            }
        }
    }
}

/// Gives up the leases of the tables here that ended, once the records have everything their tables sent them: the
/// records refuse a game's writes from a node without its lease, so a result still waiting to be written (the
/// recorder behind, or the database away) would be lost if the lease went first. Until then the leases are
/// renewed with the others.
async fn release_ended(shared: &Shared, cluster: &Cluster) {
    let ending = cluster.ending();
    if ending.is_empty() {
        return;
    }
    // Each table sent its last job before it ended, so once what was sent so far is written, theirs is.
    if !shared.recorder.caught_up().await {
        return;
    }
    if let Err(error) = cluster.release_ended(&ending).await {
        tracing::warn!(%error, "cannot give up the leases of tables that ended");
    }
}

/// How long a table told to stop is waited for to be gone before its game is taken over again from the records.
const STOP_PATIENCE: Duration = Duration::from_secs(2);

/// Tells `table` (the table `code` here), which this node no longer holds, to stop, and waits up to
/// [`STOP_PATIENCE`] for it to be gone: whether it went.
pub(crate) async fn stop_table(shared: &Shared, table: &TableHandle, code: &TableCode) -> bool {
    table.send(Command::Yield).await;
    let deadline = tokio::time::Instant::now() + STOP_PATIENCE;
    while shared.tables.find(code).is_some() {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

/// Stops each table whose game's writes the records refused because this node no longer holds it (its lease lapsed
/// while the node stalled, or another node took it over), until the server stops. Its people find the game again
/// where it runs now: on the node that took it over, or here, resumed afresh from the records (the authority:
/// a move they refused is not in the game) when no other node holds it.
pub(crate) async fn stop_lost_tables(
    shared: Arc<Shared>,
    cluster: Arc<Cluster>,
    mut lost: crate::serve::recorder::LostTables,
) {
    let mut shutdown = shared.shutdown.clone();
    loop {
        let code = tokio::select! {
            code = lost.recv() => match code {
                Some(code) => code,
                None => return,
            },
            _ = shutdown.changed() => return,
        };
        tracing::error!(%code, "the records refused a game's write: its table is not this node's; it stops here");
        if let Some((table, _)) = shared.tables.find(&code) {
            stop_table(&shared, &table, &code).await;
        }
        take_over(&shared, &cluster, &code).await;
    }
}
