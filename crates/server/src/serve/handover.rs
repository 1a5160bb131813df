//! A draining node of several hands its tables and events to the others, so that an operator can stop it (to
//! upgrade it, say) without its games and tournaments waiting out a lease term.
//!
//! Once the node drains, its events stop here (they open no more tables here), and each of its tables notes its
//! clocks and stops; once everything they sent the records is written, their leases lapse at once and are no
//! node's ([`Cluster::hand_over`]), and the next heartbeat of another node takes each over from the records (one
//! claim wins; an event's games report their results to wherever it runs then). The draining node takes nothing
//! over meanwhile (`elsewhere::claim_and_resume` and the events' take-over refuse), so its own players find their games on the
//! node that runs them now, through the relay, as after any take-over: they play on, after a pause of about a
//! heartbeat, while still connected here. A table opened here while the node drains (a player here still in the
//! lobby) is handed over the same way, a moment later. The node stops as the last of its connections leaves, or
//! as it is told to stop: its players then connect again, through the load balancer, to a node that runs their
//! game.
//!
//! On a single server there is nobody to hand a table to: its players play on where they are.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::elsewhere::stop_table;
use super::ids::{TableCode, event_key, event_of_key};
use super::nodes::cluster::Cluster;
use super::{Shared, metrics, note_every_clock};

/// How often a draining node looks again for tables opened here since it began.
const LOOK_AGAIN: Duration = Duration::from_millis(500);

/// Waits for the server to drain, then hands its tables to the other nodes, and any opened here later, until the
/// server stops.
pub(crate) async fn when_draining(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let mut draining = shared.draining.clone();
    let mut shutdown = shared.shutdown.clone();
    tokio::select! {
        drained = draining.wait_for(|draining| *draining) => {
            if drained.is_err() {
                return;
            }
        }
        _ = shutdown.wait_for(|stopped| *stopped) => return,
    }
    let started = Instant::now();
    // The lease keys of tables and events stopped here that are still to be handed over (the records could not
    // be written yet).
    let mut stopped: Vec<TableCode> = Vec::new();
    let mut said = false;
    loop {
        // The events first: an event stopped here pairs no more games here.
        let events = shared.events.codes_here();
        let codes = shared.tables.codes();
        let any = !(codes.is_empty() && events.is_empty() && stopped.is_empty());
        metrics::handing_over(any);
        for code in &events {
            shared.events.stop(code);
            stopped.push(event_key(code));
        }
        if !codes.is_empty() {
            stopped.extend(stop_tables(&shared, &codes).await);
        }
        if !stopped.is_empty() {
            let handed = hand_over(&shared, &cluster, &stopped).await;
            if let Some(handed) = handed {
                let events = stopped.iter().filter(|key| event_of_key(key).is_some());
                let events = events.count() as u64;
                let tables = handed.saturating_sub(events);
                metrics::handed_over(tables);
                tracing::info!(
                    tables,
                    events,
                    ms = started.elapsed().as_millis() as u64,
                    "tables and events handed to the other nodes"
                );
                stopped.clear();
            }
        } else if !said {
            tracing::info!("draining: no table or event here to hand over");
        }
        said = true;
        let here = !(shared.tables.is_empty() && shared.events.codes_here().is_empty());
        metrics::handing_over(here || !stopped.is_empty());
        tokio::select! {
            () = tokio::time::sleep(LOOK_AGAIN) => {}
            _ = shutdown.wait_for(|stopped| *stopped) => return,
        }
    }
}

/// Stops the tables `codes` here, their clocks noted; the codes of those that stopped. A table that will not
/// stop keeps its lease: another node takes its game over once this node has stopped, after the lease's term,
/// as after a crash.
async fn stop_tables(shared: &Shared, codes: &[TableCode]) -> Vec<TableCode> {
    // The running clocks first, all at once: the next node goes on from them rather than from the last move.
    note_every_clock(&shared.tables).await;
    let mut stopped = Vec::with_capacity(codes.len());
    for code in codes {
        let Some((table, _)) = shared.tables.find(code) else {
            continue;
        };
        if stop_table(shared, &table, code).await {
            stopped.push(code.clone());
        } else {
            tracing::warn!(%code, "a table would not stop to be handed over; left to a take-over");
        }
    }
    stopped
}

/// Hands the tables `stopped` over once the records have everything they sent; how many were handed over, or
/// `None` when the records or the nodes' database cannot be reached now (tried again a moment later).
async fn hand_over(shared: &Shared, cluster: &Cluster, stopped: &[TableCode]) -> Option<u64> {
    // The records must hold every move shown before the game leaves: the next node reads it from them.
    if !shared.recorder.caught_up().await {
        tracing::warn!(
            tables = stopped.len(),
            "the records cannot be written: the tables stopped here wait to be handed over"
        );
        return None;
    }
    match cluster.hand_over(stopped).await {
        Ok(handed) => Some(handed),
        Err(error) => {
            tracing::warn!(%error, "cannot hand tables over just now");
            None
        }
    }
}
