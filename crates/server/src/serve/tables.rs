//! The server's tables by code: what the lobby lists, what `join` and `watch` find, and where a player who
//! dropped finds their seat again.
//!
//! Each table owns its game; this list only knows how to reach it and a summary to show, which the table keeps up
//! to date after each change and removes when it ends. The lock is held for a lookup or a copy, never across
//! an await.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

use super::codes::new_code;
use super::identity::Identity;
use super::ids::{Fingerprint, TableCode};
use super::nodes::cluster::Cluster;
use super::recorder::Recorder;
use super::table::{
    EventLink, Links, Listing, Rematch, Resumed, TableConfig, TableHandle, TableList, open_table,
};

struct Entry {
    handle: TableHandle,
    listing: Listing,
    /// When a move was last played in it (or it opened), as a count of such events on this server: a player
    /// with several games not over is taken back to the one they played in last.
    active: u64,
}

/// Every table on the server, by code.
#[derive(Default)]
pub struct Tables {
    tables: Mutex<HashMap<TableCode, Entry>>,
    recorder: Option<Recorder>,
    /// The count behind each entry's `active`.
    moves: std::sync::atomic::AtomicU64,
    /// The other nodes, when this server is one of several: codes come from the leases it reserved, each
    /// table's summary is shared, and the lists show the other nodes' tables too.
    cluster: OnceLock<Arc<Cluster>>,
}

impl Tables {
    /// An empty list whose tables write their games through `recorder` (none: nothing is recorded).
    pub fn new(recorder: Option<Recorder>) -> Tables {
        Tables {
            tables: Mutex::default(),
            recorder,
            moves: std::sync::atomic::AtomicU64::new(0),
            cluster: OnceLock::new(),
        }
    }

    /// Makes this list one of several nodes' (once; later calls change nothing).
    pub fn join_cluster(&self, cluster: Arc<Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// The other nodes, when this server is one of several.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// The codes of the tables here.
    pub fn codes(&self) -> Vec<TableCode> {
        self.tables().keys().cloned().collect()
    }

    fn tables(&self) -> std::sync::MutexGuard<'_, HashMap<TableCode, Entry>> {
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens a table under a new code (or, for a resumed game, its old code when it is free); its code and
    /// handle, or `None` when no code is free.
    pub fn open(
        self: &Arc<Self>,
        config: TableConfig,
        resumed: Option<Resumed>,
    ) -> Option<(TableCode, TableHandle)> {
        let seats = resumed.as_ref().map(|r| r.seats.clone());
        self.open_with(
            config,
            Links {
                resumed,
                ..Links::default()
            },
            seats,
        )
    }

    /// Opens a table for a rematch, its seats taken by `rematch`'s players; its code and handle, or `None` when
    /// no code is free.
    pub fn open_rematch(
        self: &Arc<Self>,
        config: TableConfig,
        rematch: Rematch,
    ) -> Option<(TableCode, TableHandle)> {
        let seats = rematch.seats.clone().map(|(who, _)| who);
        self.open_with(
            config,
            Links {
                rematch: Some(rematch),
                ..Links::default()
            },
            Some(seats),
        )
    }

    /// Opens a table for a tournament's game, its seats (Black, White) taken by the paired players, both away
    /// until they arrive; its code and handle, or `None` when no code is free.
    pub fn open_event(
        self: &Arc<Self>,
        config: TableConfig,
        seats: [Identity; 2],
        link: EventLink,
    ) -> Option<(TableCode, TableHandle)> {
        let rematch = Rematch {
            seats: seats.clone().map(|who| (who, None)),
        };
        self.open_with(
            config,
            Links {
                rematch: Some(rematch),
                tournament: Some(link),
                ..Links::default()
            },
            Some(seats),
        )
    }

    /// Opens a table for a game resumed after a restart that belongs to a tournament (see [`Tables::open`]).
    pub fn open_resumed_in_event(
        self: &Arc<Self>,
        config: TableConfig,
        resumed: Resumed,
        link: EventLink,
    ) -> Option<(TableCode, TableHandle)> {
        let seats = Some(resumed.seats.clone());
        self.open_with(
            config,
            Links {
                resumed: Some(resumed),
                tournament: Some(link),
                ..Links::default()
            },
            seats,
        )
    }

    /// Opens a table linked as `links` says (its code, list and recorder filled in here) with these players
    /// seated, if any.
    fn open_with(
        self: &Arc<Self>,
        config: TableConfig,
        links: Links,
        seated: Option<[Identity; 2]>,
    ) -> Option<(TableCode, TableHandle)> {
        let mut tables = self.tables();
        let wanted = links.resumed.as_ref().and_then(|r| r.code.clone());
        // A game resumed twice (two take-overs at once, on this node): one table, the one already open with its
        // code and its players. Under another code it would be a second table of the same game, each with a
        // part of its people.
        if let (Some(resumed), Some(open)) = (
            links.resumed.as_ref(),
            wanted.as_ref().and_then(|code| tables.get(code)),
        ) && open
            .listing
            .seats
            .iter()
            .zip(&resumed.seats)
            .all(|(seat, who)| seat.as_ref().is_some_and(|(f, _)| *f == who.fingerprint))
        {
            return Some((open.listing.code.clone(), open.handle.clone()));
        }
        let wanted = wanted.filter(|code| !tables.contains_key(code));
        let code = match (wanted, self.cluster.get()) {
            (Some(code), _) => code,
            // One of several nodes: a code this node has reserved, so that no other node opens a table with it.
            (None, Some(cluster)) => cluster.take_code(|code| tables.contains_key(code))?,
            (None, None) => new_code(|code| tables.contains_key(code))?,
        };
        let seats = seated.map_or([None, None], |seats| {
            seats.map(|id| Some((id.fingerprint, id.name)))
        });
        let plies = links.resumed.as_ref().map_or(0, |r| r.game.len());
        let board = links.tournament.is_some();
        let links = Links {
            code: code.clone(),
            tables: Some(Arc::downgrade(self) as Weak<dyn TableList>),
            recorder: self.recorder.clone(),
            ..links
        };
        let handle = open_table(config, links);
        let listing = Listing {
            code: code.clone(),
            config,
            seats,
            plies,
            over: false,
            watchers: 0,
            board,
        };
        if let Some(cluster) = self.cluster.get() {
            cluster.publish(&listing);
        }
        tables.insert(
            code.clone(),
            Entry {
                handle: handle.clone(),
                listing,
                active: self.next_move(),
            },
        );
        Some((code, handle))
    }

    /// The table with `code`, if it is open.
    pub fn find(&self, code: &TableCode) -> Option<(TableHandle, Listing)> {
        self.tables()
            .get(code)
            .map(|e| (e.handle.clone(), e.listing.clone()))
    }

    /// A game not over where `fingerprint` has a seat, the one opened or played in last when there are several
    /// (after a restart, the one begun last): where a player who dropped goes back to (here first, then on the
    /// other nodes).
    pub fn seat_of(&self, fingerprint: &Fingerprint) -> Option<(TableHandle, Listing)> {
        let here = self
            .tables()
            .values()
            .filter(|e| e.listing.seats_player(fingerprint))
            .max_by_key(|e| e.active)
            .map(|e| (e.handle.clone(), e.listing.clone()));
        here.or_else(|| self.cluster.get()?.seat_elsewhere(fingerprint))
    }

    /// Everyone seated at an event's board whose game is not over, here and on the other nodes: who is playing
    /// an event's game just now, and is not paired in another. (Not a casual table: a game both players walked
    /// away from stays open, and would keep its players out of every event.)
    pub fn busy_players(&self) -> HashSet<Fingerprint> {
        self.listings()
            .into_iter()
            .filter(|listing| listing.board && !listing.over)
            .flat_map(|listing| listing.seats.into_iter().flatten().map(|(who, _)| who))
            .collect()
    }

    /// Every table, here and on the other nodes, sorted by code.
    pub fn listings(&self) -> Vec<Listing> {
        let mut listings: Vec<Listing> =
            self.tables().values().map(|e| e.listing.clone()).collect();
        if let Some(cluster) = self.cluster.get() {
            listings.extend(cluster.others());
        }
        listings.sort_by(|a, b| a.code.cmp(&b.code));
        listings
    }

    /// Every table's handle (to tell each the server is stopping).
    pub fn handles(&self) -> Vec<TableHandle> {
        self.tables().values().map(|e| e.handle.clone()).collect()
    }

    /// How many tables are open.
    pub fn len(&self) -> usize {
        self.tables().len()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn next_move(&self) -> u64 {
        self.moves
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

/// The list as its tables know it.
impl TableList for Tables {
    /// The table's new summary (called by the table after a change).
    fn update(&self, listing: Listing) {
        if let Some(entry) = self.tables().get_mut(&listing.code) {
            if let Some(cluster) = self.cluster.get() {
                cluster.publish(&listing);
            }
            if listing.plies != entry.listing.plies {
                entry.active = self.next_move();
            }
            entry.listing = listing;
        }
    }

    /// The table has ended (called by the table as it goes).
    fn remove(&self, code: &TableCode) {
        if self.tables().remove(code).is_some()
            && let Some(cluster) = self.cluster.get()
        {
            cluster.ended(code);
        }
    }

    fn open_rematch(self: Arc<Self>, config: TableConfig, rematch: Rematch) -> Option<TableCode> {
        Tables::open_rematch(&self, config, rematch).map(|(code, _)| code)
    }
}
