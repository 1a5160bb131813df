//! This node among the others: the leases of its tables, their summaries for the other nodes' lobbies, the tables
//! the others run, and what each heartbeat finds (tables lost to another node, tables whose node has died).
//!
//! The server's list of tables ([`Tables`](crate::serve::tables::Tables)) stays synchronous: a table opens with a
//! code reserved ahead by the heartbeat, and a change to a table's summary is noted here and written on the next
//! beat. Only looking up a code that is not here waits on the database.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio_postgres::Config;

use super::db::Db;
use super::event_listing::view_from_listing;
use super::lease::{self, Leases};
use super::relay::{Relay, TablesHere};
use super::{NodeName, NodesError, bus, create_schema};
use crate::game::TimeControl;
use crate::rules::{GameType, Variant};
use crate::serve::codes::new_code;
use crate::serve::events::view::View;
use crate::serve::ids::{Fingerprint, TableCode};
use crate::serve::table::Listing;
use crate::serve::table::{TableConfig, TableHandle, variant_named};

/// How many codes a node keeps reserved for the tables it will open: more are reserved as soon as half are used,
/// so that a burst of new games (a tournament's round, a load test) never waits for a heartbeat.
const RESERVED: usize = 64;

/// How long a lookup waits for the summary of a table another node has just opened.
const SUMMARY_WAIT: Duration = Duration::from_secs(2);

/// How long a message waits for a node that does not read it.
const STALE_MESSAGES: Duration = Duration::from_secs(600);

/// What a heartbeat found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beat {
    /// Tables this node runs whose leases another node now holds: they must stop here.
    pub lost: Vec<TableCode>,
    /// Tables whose owner has died or stalled: to be taken over from the records.
    pub lapsed: Vec<TableCode>,
    /// Events this node runs whose leases another node now holds: they must stop here.
    pub lost_events: Vec<TableCode>,
    /// Events whose owner has died or stalled: to be taken over from the records.
    pub lapsed_events: Vec<TableCode>,
}

/// A table that is not on this node.
pub enum Found {
    /// Another node runs it: a handle to it through the relay, and its summary.
    Elsewhere(TableHandle, Box<Listing>),
    /// Its node has died: it may be taken over.
    Lapsed,
}

/// A table's summary as the nodes write it.
#[derive(Debug, Serialize, Deserialize)]
struct Summary {
    variant: String,
    definition: Option<String>,
    clock: String,
    grace_ms: u64,
    rated: bool,
    private: bool,
    seats: [Option<(String, String)>; 2],
    plies: usize,
    over: bool,
    watchers: usize,
    /// Whether the table is an event's board (absent from a node of an older version: not one).
    #[serde(default)]
    board: bool,
}

/// A table's summary as text, for the other nodes.
pub fn summary_text(listing: &Listing) -> String {
    let config = listing.config;
    let summary = Summary {
        variant: config.game_type.variant.to_string(),
        definition: match config.game_type.variant {
            Variant::Defined(id) => Some(id.get().text.clone()),
            _ => None,
        },
        clock: config.clock.map(|c| c.to_string()).unwrap_or_default(),
        grace_ms: u64::try_from(config.grace.as_millis()).unwrap_or(u64::MAX),
        rated: config.rated,
        private: config.private,
        seats: listing
            .seats
            .clone()
            .map(|seat| seat.map(|(fingerprint, name)| (fingerprint.to_string(), name))),
        plies: listing.plies,
        over: listing.over,
        watchers: listing.watchers,
        board: listing.board,
    };
    serde_json::to_string(&summary).unwrap_or_default()
}

/// A summary another node wrote, as a listing; `None` when it does not read (logged).
pub fn listing_from_summary(code: &TableCode, text: &str) -> Option<Listing> {
    let summary: Summary = serde_json::from_str(text)
        .inspect_err(|error| tracing::warn!(%error, %code, "another node's table summary"))
        .ok()?;
    let variant = variant_named(&summary.variant, summary.definition.as_deref())
        .inspect_err(|error| tracing::warn!(%error, %code, "another node's table variant"))
        .ok()?;
    let clock = match summary.clock.as_str() {
        "" => None,
        text => Some(text.parse::<TimeControl>().ok()?),
    };
    Some(Listing {
        code: code.clone(),
        config: TableConfig {
            game_type: GameType::standard(variant),
            clock,
            grace: Duration::from_millis(summary.grace_ms),
            rated: summary.rated,
            private: summary.private,
        },
        seats: summary
            .seats
            .map(|seat| seat.map(|(fingerprint, name)| (Fingerprint::new(fingerprint), name))),
        plies: summary.plies,
        over: summary.over,
        watchers: summary.watchers,
        board: summary.board,
    })
}

/// Whether `now` differs from the summary `written` only by the game's progress (its moves, its watchers): what
/// the other nodes' lobbies show, and no node acts on.
fn only_progress(written: &Listing, now: &Listing) -> bool {
    written.config == now.config && written.seats == now.seats && written.over == now.over
}

/// This node's part in a server of several.
pub struct Cluster {
    leases: Leases,
    db: Db,
    relay: Arc<Relay>,
    /// Codes reserved and not yet used.
    reserved: Mutex<Vec<TableCode>>,
    /// Held while codes are being reserved.
    topping_up: tokio::sync::Mutex<()>,
    /// Tables here that ended, whose leases are kept until the records have their games.
    ending: Mutex<Vec<TableCode>>,
    /// This node's tables' summaries waiting to be written: the newest, or `None` once the table has ended.
    pending: Mutex<HashMap<TableCode, Option<Listing>>>,
    /// This node's tables' summaries as last written: what tells a change the others must see at once from one
    /// that waits for the next heartbeat ([`Cluster::publish`]).
    written: Mutex<HashMap<TableCode, Listing>>,
    /// The other nodes' tables as last read, with the node that runs each.
    others: Mutex<Vec<(NodeName, Listing)>>,
    /// The other nodes' events as last read, with the node that runs each.
    other_events: Mutex<Vec<(NodeName, Arc<View>)>>,
    /// This node's events' summaries as last written, by code.
    events_written: Mutex<HashMap<TableCode, String>>,
    /// Raised when a summary waits to be written: a new table must be found by the other nodes at once, not at
    /// the next heartbeat.
    waiting: tokio::sync::Notify,
    /// Raised when a take-over could not read the records: a game may be in progress with no table, and the
    /// heartbeat looks through the records for such games once they answer.
    sweep_wanted: AtomicBool,
    /// When this node's leases were last renewed (the moment the renewal was asked, to be safe), if ever.
    renewed: Mutex<Option<std::time::Instant>>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Cluster {
    /// Joins the nodes on the database at `config` as `node`, started as `generation` (its renewals and claims
    /// are then fenced by it), with leases lasting `term` (a heartbeat should come several times a term); the
    /// tables other nodes ask for are found with `tables_here`.
    pub async fn start(
        config: Config,
        node: NodeName,
        term: Duration,
        generation: Option<i64>,
        tables_here: TablesHere,
    ) -> Result<Arc<Cluster>, NodesError> {
        // Named, so that the other nodes see at once when this node's process has gone (its sessions end with it).
        let mut config = config;
        config.application_name(lease::session_name(&node));
        // The schema's creation needs a transaction, so a connection of its own; the shared one is for queries.
        let (mut own, connection) = config.connect(tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        create_schema(&mut own).await?;
        drop(own);
        let db = Db::connect(config.clone()).await?;
        let relay = Relay::start(config, node.clone(), term, tables_here).await?;
        Ok(Arc::new(Cluster {
            leases: Leases::new(node, term).of_generation(generation),
            db,
            relay,
            reserved: Mutex::default(),
            topping_up: tokio::sync::Mutex::default(),
            ending: Mutex::default(),
            pending: Mutex::default(),
            written: Mutex::default(),
            others: Mutex::default(),
            other_events: Mutex::default(),
            events_written: Mutex::default(),
            waiting: tokio::sync::Notify::new(),
            sweep_wanted: AtomicBool::new(false),
            renewed: Mutex::new(None),
        }))
    }

    /// This node's name.
    pub fn node(&self) -> &NodeName {
        self.leases.node()
    }

    /// The relay to the tables elsewhere.
    pub fn relay(&self) -> &Arc<Relay> {
        &self.relay
    }

    /// A code reserved for a table to open here, not used by a table here (`is_here`); `None` when none is left
    /// (then [`Cluster::top_up`] reserves more at once; the heartbeat is told to as soon as half are used).
    pub fn take_code(&self, is_here: impl Fn(&TableCode) -> bool) -> Option<TableCode> {
        let mut reserved = locked(&self.reserved);
        let code = std::iter::from_fn(|| reserved.pop()).find(|code| !is_here(code));
        if reserved.len() < RESERVED / 2 {
            self.waiting.notify_one();
        }
        code
    }

    /// Reserves codes until enough wait unused (`here`: the codes of the tables here), in one statement. One
    /// top-up at a time: a burst of new games that finds the codes used up waits for the one under way rather
    /// than each reserving its own.
    pub async fn top_up(&self, here: &[TableCode]) -> Result<(), NodesError> {
        let _one_at_a_time = self.topping_up.lock().await;
        let wanted = RESERVED.saturating_sub(locked(&self.reserved).len());
        if wanted == 0 {
            return Ok(());
        }
        let mut fresh: Vec<TableCode> = Vec::with_capacity(wanted);
        {
            let reserved = locked(&self.reserved);
            for _ in 0..wanted {
                let taken = |code: &TableCode| {
                    here.contains(code) || reserved.contains(code) || fresh.contains(code)
                };
                let Some(code) = new_code(taken) else { break };
                fresh.push(code);
            }
        }
        let db = self.db.client().await?;
        // Refused for the codes any node holds, or held and whose games wait to be taken over.
        let reserved = self.leases.reserve_all(&db, &fresh).await?;
        locked(&self.reserved).extend(reserved);
        Ok(())
    }

    /// Notes a table's new summary. A new table, a seat taken or left, a game over are written at once: another
    /// node must find the table, or a seat in it, as it is now. A move or a watcher changes only what the other
    /// nodes' lobbies show, which they read on their heartbeat anyway: that waits for this node's next one, so
    /// that a game costs no write of its summary for every move.
    pub fn publish(&self, listing: &Listing) {
        let at_once = locked(&self.written)
            .get(&listing.code)
            .is_none_or(|written| !only_progress(written, listing));
        locked(&self.pending).insert(listing.code.clone(), Some(listing.clone()));
        if at_once {
            self.waiting.notify_one();
        }
    }

    /// Notes that a table here has ended: its summary is taken away on the next heartbeat, and its lease given
    /// up once the records have its game ([`Cluster::ending`], [`Cluster::release_ended`]).
    pub fn ended(&self, code: &TableCode) {
        locked(&self.pending).insert(code.clone(), None);
        self.waiting.notify_one();
    }

    /// Waits until a table's summary waits to be written.
    pub async fn changed(&self) {
        self.waiting.notified().await;
    }

    /// Writes the summaries waiting (a table that ended keeps its last, and its lease waits in
    /// [`Cluster::ending`]).
    pub async fn flush(&self) -> Result<(), NodesError> {
        let db = self.db.client().await?;
        let pending: Vec<(TableCode, Option<Listing>)> = locked(&self.pending).drain().collect();
        for (code, listing) in pending {
            let written = match &listing {
                Some(listing) => self
                    .leases
                    .publish(&db, &code, &summary_text(listing))
                    .await
                    .map(drop),
                // Its last summary (the game over) stays until the lease is given up.
                None => {
                    locked(&self.ending).push(code.clone());
                    Ok(())
                }
            };
            match (&written, &listing) {
                (Ok(()), Some(listing)) => {
                    locked(&self.written).insert(code.clone(), listing.clone());
                }
                (Ok(()), None) => {
                    locked(&self.written).remove(&code);
                }
                (Err(_), _) => {}
            }
            if let Err(error) = written {
                // Written next time, unless something newer is waiting by then.
                locked(&self.pending).entry(code).or_insert(listing);
                return Err(error);
            }
        }
        Ok(())
    }

    /// The tables here that ended and whose leases wait to be given up. The records refuse a game's writes from a
    /// node that does not hold its table, so a lease is given up only once the records have everything its table
    /// sent them (its result above all): the heartbeat sees to it, with [`Cluster::release_ended`].
    pub fn ending(&self) -> Vec<TableCode> {
        locked(&self.ending).clone()
    }

    /// Whether `code` is a table here that has ended (its lease not given up yet): its game is over, whatever the
    /// records say until they have its result.
    pub fn ended_here(&self, code: &TableCode) -> bool {
        locked(&self.ending).contains(code)
            || locked(&self.pending).get(code).is_some_and(Option::is_none)
    }

    /// Gives up the leases of `codes`, tables here that ended and whose records are written.
    pub async fn release_ended(&self, codes: &[TableCode]) -> Result<(), NodesError> {
        let db = self.db.client().await?;
        for code in codes {
            self.leases.release(&db, code).await?;
            locked(&self.ending).retain(|ending| ending != code);
        }
        Ok(())
    }

    /// Whether this node's leases are surely still its own: renewed within their term. A node that stalled past
    /// it, or could not reach the database for as long, may have lost tables it still runs without knowing yet.
    pub fn leases_sure(&self) -> bool {
        locked(&self.renewed).is_some_and(|at| at.elapsed() < self.leases.term())
    }

    /// Whether the table `code` is this node's, as the leases say now.
    pub async fn holds(&self, code: &TableCode) -> Result<bool, NodesError> {
        let db = self.db.client().await?;
        let holder = lease::holder(&db, code).await?;
        Ok(holder.is_some_and(|holder| holder.node == self.node().as_str()))
    }

    /// Asks the heartbeat to look through the records for games in progress that no node runs (a take-over
    /// could not read them).
    pub fn want_sweep(&self) {
        self.sweep_wanted.store(true, Ordering::Relaxed);
    }

    /// Whether a look through the records was asked for since the last call.
    pub fn take_sweep(&self) -> bool {
        self.sweep_wanted.swap(false, Ordering::Relaxed)
    }

    /// The other nodes' tables, as last read.
    pub fn others(&self) -> Vec<Listing> {
        locked(&self.others)
            .iter()
            .map(|(_, listing)| listing.clone())
            .collect()
    }

    /// A game not over on another node where `fingerprint` has a seat, with a handle to it.
    pub fn seat_elsewhere(&self, fingerprint: &Fingerprint) -> Option<(TableHandle, Listing)> {
        let (node, listing) = locked(&self.others)
            .iter()
            .find(|(_, listing)| listing.seats_player(fingerprint))
            .cloned()?;
        let handle = self.relay.table_at(node, listing.code.clone());
        Some((handle, listing))
    }

    /// The table `code` when it is not here: run by another node, or lapsed; `None` when there is no such table.
    /// A table another node has just opened may not have its summary written yet: it is waited for a moment.
    pub async fn find(&self, code: &TableCode) -> Result<Option<Found>, NodesError> {
        let deadline = tokio::time::Instant::now() + SUMMARY_WAIT;
        // The longest a silent node's lease can still run.
        let lapse_deadline = tokio::time::Instant::now() + self.leases.term();
        loop {
            let db = self.db.client().await?;
            let Some(holder) = lease::holder(&db, code).await? else {
                return Ok(None);
            };
            if !holder.live {
                return Ok(Some(Found::Lapsed));
            }
            let Ok(node) = holder.node.parse::<NodeName>() else {
                return Ok(None);
            };
            // A node that has missed two heartbeats has most likely died: rather than ask it and wait for an
            // answer that will not come, wait for its lease to lapse (at most the term), and take the table over.
            let silent = holder
                .silent_for
                .is_some_and(|silent| silent > self.leases.term() / 2);
            if silent && node != *self.node() && tokio::time::Instant::now() < lapse_deadline {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            if node == *self.node() {
                // This node's own lease on a table it does not run: a code reserved, or a table from before a
                // restart that the next heartbeat resumes.
                return Ok(None);
            }
            match holder.listing {
                Some(text) => {
                    let Some(listing) = listing_from_summary(code, &text) else {
                        return Ok(None);
                    };
                    let table = self.relay.table_at(node, code.clone());
                    return Ok(Some(Found::Elsewhere(table, Box::new(listing))));
                }
                // A code reserved and not used (after the wait), or a table that opened a moment ago.
                None if tokio::time::Instant::now() >= deadline => return Ok(None),
                None => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Hands the tables `codes`, stopped here with their games written, to the other nodes (see
    /// [`Leases::hand_over`]); how many were handed over.
    pub async fn hand_over(&self, codes: &[TableCode]) -> Result<u64, NodesError> {
        let db = self.db.client().await?;
        self.leases.hand_over(&db, codes).await
    }

    /// Claims the table `code` for this node (to take it over): `true` when it is this node's now.
    pub async fn claim(&self, code: &TableCode) -> Result<bool, NodesError> {
        let db = self.db.client().await?;
        self.leases.claim(&db, code).await
    }

    /// Gives up the table `code` at once (a table taken over with no game to resume).
    pub async fn release(&self, code: &TableCode) -> Result<(), NodesError> {
        let db = self.db.client().await?;
        self.leases.release(&db, code).await
    }

    /// The heartbeat, given the codes of the tables and the events here: renews this node's leases, writes its
    /// tables' summaries, reserves codes, reads the other nodes' tables and events, lets go of the people of nodes
    /// that have died, and says which tables and events here were lost and which elsewhere lapsed.
    pub async fn beat(&self, here: &[TableCode], events: &[TableCode]) -> Result<Beat, NodesError> {
        let db = self.db.client().await?;
        let asked = std::time::Instant::now();
        let held = self.leases.renew(&db).await;
        crate::serve::metrics::lease_renewal(held.is_ok());
        let held = held?;
        *locked(&self.renewed) = Some(asked);
        let lost = here
            .iter()
            .filter(|c| !held.contains(*c))
            .cloned()
            .collect();
        let lost_events = events
            .iter()
            .filter(|c| !held.contains(&lease::event_key(c)))
            .cloned()
            .collect();

        self.flush().await?;

        self.top_up(here).await?;

        let others: Vec<(NodeName, Listing)> = self
            .leases
            .others(&db, false)
            .await?
            .into_iter()
            .filter_map(|listed| {
                let node = listed.node.parse().ok()?;
                Some((node, listing_from_summary(&listed.code, &listed.listing)?))
            })
            .collect();
        *locked(&self.others) = others;
        let other_events: Vec<(NodeName, Arc<View>)> = self
            .leases
            .others(&db, true)
            .await?
            .into_iter()
            .filter_map(|listed| {
                let node = listed.node.parse().ok()?;
                Some((node, view_from_listing(&listed.code, &listed.listing)?))
            })
            .collect();
        *locked(&self.other_events) = other_events;

        for silent in lease::silent_nodes(&db, self.leases.term()).await? {
            if let Ok(node) = silent.parse::<NodeName>() {
                self.relay.forget_node(&node).await;
            }
        }
        // People here at tables whose node has gone, or that another node has taken over: the table ends for them,
        // and they find the game again where it runs now. Until then, those at tables whose node does not answer
        // are told that their game is paused, and their moves are refused rather than sent into the void.
        let away = self.relay.tables_away();
        let mut owners: Vec<String> = away.iter().map(|(node, _)| node.to_string()).collect();
        owners.dedup();
        let silent = lease::unanswering(&db, &owners, self.leases.term() / 2)
            .await?
            .into_iter()
            .filter_map(|name| name.parse().ok())
            .collect();
        self.relay.mark_silent(silent).await;
        if !away.is_empty() {
            let held = lease::still_held(&db, &away).await?;
            for (owner, code) in away.iter().filter(|table| !held.contains(*table)) {
                self.relay.close_table(owner, code);
            }
        }
        bus::purge_stale(&db, STALE_MESSAGES).await?;
        let lapsed = lease::lapsed(&db, false).await?;
        let lapsed_events = lease::lapsed(&db, true).await?;
        Ok(Beat {
            lost,
            lapsed,
            lost_events,
            lapsed_events,
        })
    }
}

#[path = "cluster_events.rs"]
mod events;
pub use events::EventOwner;
