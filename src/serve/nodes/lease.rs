//! Which node owns which room: a lease row per room, renewed on a heartbeat.
//!
//! A node that opens a room claims it; while the node lives it renews all its leases at once, every few seconds.
//! When a node dies its leases lapse, and any other node may take a room over by claiming it again. A claim is
//! one conditional write (`INSERT ... ON CONFLICT DO UPDATE ... WHERE` the lease has lapsed or is already the
//! claimant's), which PostgreSQL runs one at a time for a row: when two nodes race for a room, exactly one gets
//! it, and a room is never owned twice.

use std::collections::HashSet;
use std::time::Duration;

use tokio_postgres::Client;

use super::{NodeName, NodesError};
use crate::serve::ids::{GameId, RoomCode};

/// A room's owner as the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The owning node's name.
    pub node: String,
    /// The game the room plays.
    pub game: GameId,
    /// Whether the lease still runs (when it has lapsed, the room may be taken over).
    pub live: bool,
}

/// One node's leases: claimed, renewed and released in its name, each lasting `term` from its last renewal.
#[derive(Clone, Debug)]
pub struct Leases {
    node: NodeName,
    term: Duration,
}

impl Leases {
    /// The leases of `node`, each lasting `term` past its last renewal. The term should be several heartbeats
    /// long, so that a slow heartbeat or two does not give rooms away.
    pub fn new(node: NodeName, term: Duration) -> Leases {
        Leases { node, term }
    }

    /// The node they are held by.
    pub fn node(&self) -> &NodeName {
        &self.node
    }

    fn term_seconds(&self) -> f64 {
        self.term.as_secs_f64()
    }

    /// Claims the room `code` playing `game`: `true` when this node owns it now (it was free, its lease had
    /// lapsed, or it was already this node's), `false` when another node holds a live lease on it.
    pub async fn claim(
        &self,
        db: &Client,
        code: &RoomCode,
        game: GameId,
    ) -> Result<bool, NodesError> {
        let won = db
            .query_opt(
                "INSERT INTO room_leases (code, game, owner, expires) \
                 VALUES ($1, $2, $3, now() + make_interval(secs => $4)) \
                 ON CONFLICT (code) DO UPDATE \
                     SET game = excluded.game, owner = excluded.owner, expires = excluded.expires \
                     WHERE room_leases.expires <= now() OR room_leases.owner = excluded.owner \
                 RETURNING owner",
                &[
                    &code.as_str(),
                    &game.get(),
                    &self.node.as_str(),
                    &self.term_seconds(),
                ],
            )
            .await?;
        Ok(won.is_some())
    }

    /// The heartbeat: notes that this node is alive and renews every lease it holds; the codes it still holds.
    /// A room this node runs whose code is not among them has been taken over by another node (this node was
    /// too slow to renew): it must stop running it.
    pub async fn renew(&self, db: &Client) -> Result<HashSet<RoomCode>, NodesError> {
        db.execute(
            "INSERT INTO nodes (name, seen) VALUES ($1, now()) \
             ON CONFLICT (name) DO UPDATE SET seen = now()",
            &[&self.node.as_str()],
        )
        .await?;
        let rows = db
            .query(
                "UPDATE room_leases SET expires = now() + make_interval(secs => $2) \
                 WHERE owner = $1 RETURNING code",
                &[&self.node.as_str(), &self.term_seconds()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| RoomCode::new(row.get::<_, String>(0)))
            .collect())
    }

    /// Gives the room `code` up (its game is over and everyone has gone); a lease held by another node is left
    /// alone.
    pub async fn release(&self, db: &Client, code: &RoomCode) -> Result<(), NodesError> {
        db.execute(
            "DELETE FROM room_leases WHERE code = $1 AND owner = $2",
            &[&code.as_str(), &self.node.as_str()],
        )
        .await?;
        Ok(())
    }

    /// Gives up every room this node holds (it is stopping cleanly): others may take them over at once rather
    /// than after the term.
    pub async fn release_all(&self, db: &Client) -> Result<u64, NodesError> {
        Ok(db
            .execute(
                "DELETE FROM room_leases WHERE owner = $1",
                &[&self.node.as_str()],
            )
            .await?)
    }
}

/// Who owns the room `code`, if anyone has claimed it.
pub async fn holder(db: &Client, code: &RoomCode) -> Result<Option<Holder>, NodesError> {
    let row = db
        .query_opt(
            "SELECT owner, game, expires > now() FROM room_leases WHERE code = $1",
            &[&code.as_str()],
        )
        .await?;
    Ok(row.map(|row| Holder {
        node: row.get(0),
        game: GameId::new(row.get(1)),
        live: row.get(2),
    }))
}

/// The rooms whose leases have lapsed (their node died or stalled): what a surviving node takes over. Oldest
/// lapse first.
pub async fn lapsed(db: &Client) -> Result<Vec<(RoomCode, GameId)>, NodesError> {
    let rows = db
        .query(
            "SELECT code, game FROM room_leases WHERE expires <= now() ORDER BY expires",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| {
            (
                RoomCode::new(row.get::<_, String>(0)),
                GameId::new(row.get(1)),
            )
        })
        .collect())
}

/// The nodes that have renewed within `within`: those alive, by name.
pub async fn live_nodes(db: &Client, within: Duration) -> Result<Vec<String>, NodesError> {
    let rows = db
        .query(
            "SELECT name FROM nodes WHERE seen > now() - make_interval(secs => $1) ORDER BY name",
            &[&within.as_secs_f64()],
        )
        .await?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}
