//! Which node owns which table: a lease row per table code, renewed on a heartbeat.
//!
//! A node reserves codes ahead (so that opening a table needs no wait on the database) and claims the tables it
//! takes over; while the node lives it renews all its leases at once, every few seconds. When a node dies its
//! leases lapse, and another node may take a table over by claiming it. A claim is one conditional write (`INSERT
//! ... ON CONFLICT DO UPDATE ... WHERE` the lease has lapsed or is already the claimant's), which PostgreSQL
//! runs one at a time for a row: when two nodes race for a table, exactly one gets it, and a table is never owned
//! twice. The row also carries the table's summary for the other nodes' lobbies.

use std::collections::HashSet;
use std::time::Duration;

use tokio_postgres::Client;

use super::{NodeName, NodesError};
use crate::serve::ids::TableCode;

/// A table's owner as the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The owning node's name.
    pub node: String,
    /// Whether the lease still runs (when it has lapsed, the table may be taken over).
    pub live: bool,
    /// The table's summary as its owner last wrote it; `None` for a code reserved and not yet used.
    pub listing: Option<String>,
    /// How long ago its node last renewed its leases (`None` when the node has never been seen).
    pub silent_for: Option<Duration>,
}

/// A table another node runs, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its code.
    pub code: TableCode,
    /// The node that runs it.
    pub node: String,
    /// Its summary as that node wrote it.
    pub listing: String,
}

/// One node's leases: reserved, claimed, renewed and released in its name, each lasting `term` from its last
/// renewal.
#[derive(Clone, Debug)]
pub struct Leases {
    node: NodeName,
    term: Duration,
    /// The generation this process of the node started as (the records' `claim_node`), the fencing token its
    /// renewals and claims carry: once another process has started under the name, this one's renew and claim
    /// nothing. `None`: not checked.
    generation: Option<i64>,
}

impl Leases {
    /// The leases of `node`, each lasting `term` past its last renewal. The term should be several heartbeats
    /// long, so that a slow heartbeat or two does not give tables away.
    pub fn new(node: NodeName, term: Duration) -> Leases {
        Leases {
            node,
            term,
            generation: None,
        }
    }

    /// The same leases, renewed and claimed only while `generation` is the node's (see [`Leases::renew`]).
    pub fn of_generation(mut self, generation: Option<i64>) -> Leases {
        self.generation = generation;
        self
    }

    /// The node they are held by.
    pub fn node(&self) -> &NodeName {
        &self.node
    }

    /// How long a lease lasts past its last renewal.
    pub fn term(&self) -> Duration {
        self.term
    }

    fn term_seconds(&self) -> f64 {
        self.term.as_secs_f64()
    }

    /// Reserves the code `code` for a table this node will open: `true` when no node had it (a code whose lease
    /// has lapsed is not taken this way: its game waits to be taken over) and no game in progress in the records
    /// has it (one whose table has closed with nobody at it: it is found again by its code).
    pub async fn reserve(&self, db: &Client, code: &TableCode) -> Result<bool, NodesError> {
        Ok(!self
            .reserve_all(db, std::slice::from_ref(code))
            .await?
            .is_empty())
    }

    /// Reserves each of `codes` as [`Leases::reserve`] does, in one statement (one commit, whatever their
    /// number): those no node had, now this node's.
    pub async fn reserve_all(
        &self,
        db: &Client,
        codes: &[TableCode],
    ) -> Result<Vec<TableCode>, NodesError> {
        let codes: Vec<&str> = codes.iter().map(TableCode::as_str).collect();
        let rows = db
            .query(
                "INSERT INTO room_leases (code, owner, expires) \
                 SELECT wanted.code, $2, now() + make_interval(secs => $3) \
                 FROM unnest($1::text[]) AS wanted (code) \
                 WHERE ($4::bigint IS NULL \
                        OR EXISTS (SELECT 1 FROM nodes WHERE name = $2 AND generation = $4)) \
                     AND NOT EXISTS (SELECT 1 FROM games \
                                     WHERE games.code = wanted.code AND games.ended IS NULL) \
                 ON CONFLICT (code) DO NOTHING RETURNING code",
                &[
                    &codes,
                    &self.node.as_str(),
                    &self.term_seconds(),
                    &self.generation,
                ],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| TableCode::new(row.get::<_, String>(0)))
            .collect())
    }

    /// Claims the table `code`: `true` when this node owns it now (it was free, its lease had lapsed, or it was
    /// already this node's), `false` when another node holds a live lease on it.
    pub async fn claim(&self, db: &Client, code: &TableCode) -> Result<bool, NodesError> {
        let won = db
            .query_opt(
                "INSERT INTO room_leases (code, owner, expires) \
                 SELECT $1, $2, now() + make_interval(secs => $3) \
                 WHERE $4::bigint IS NULL \
                     OR EXISTS (SELECT 1 FROM nodes WHERE name = $2 AND generation = $4) \
                 ON CONFLICT (code) DO UPDATE SET owner = excluded.owner, expires = excluded.expires \
                     WHERE room_leases.expires <= now() OR room_leases.owner = excluded.owner \
                 RETURNING owner",
                &[&code.as_str(), &self.node.as_str(), &self.term_seconds(), &self.generation],
            )
            .await?;
        Ok(won.is_some())
    }

    /// The heartbeat: notes that this node is alive and renews every lease it holds; the codes it still holds.
    /// A table this node runs whose code is not among them has been taken over by another node (this node was
    /// too slow to renew): it must stop running it.
    /// A process whose generation is no longer the node's (it was paused past its term and another started
    /// under its name) renews nothing: every table it runs is then stopped.
    pub async fn renew(&self, db: &Client) -> Result<HashSet<TableCode>, NodesError> {
        let seen = match self.generation {
            Some(generation) => {
                db.execute(
                    "UPDATE nodes SET seen = now() WHERE name = $1 AND generation = $2",
                    &[&self.node.as_str(), &generation],
                )
                .await?
            }
            None => {
                db.execute(
                    "INSERT INTO nodes (name, seen) VALUES ($1, now()) \
                     ON CONFLICT (name) DO UPDATE SET seen = now()",
                    &[&self.node.as_str()],
                )
                .await?
            }
        };
        if seen == 0 {
            tracing::error!(
                node = %self.node,
                "another process has started under this node's name: this one holds no table any more"
            );
            return Ok(HashSet::new());
        }
        let rows = db
            .query(
                "UPDATE room_leases SET expires = now() + make_interval(secs => $2) \
                 WHERE owner = $1 RETURNING code",
                &[&self.node.as_str(), &self.term_seconds()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| TableCode::new(row.get::<_, String>(0)))
            .collect())
    }

    /// Writes the summary of a table this node holds, for the other nodes' lobbies; `false` when the table is no
    /// longer this node's.
    pub async fn publish(
        &self,
        db: &Client,
        code: &TableCode,
        listing: &str,
    ) -> Result<bool, NodesError> {
        let written = db
            .execute(
                "UPDATE room_leases SET listing = $3 WHERE code = $1 AND owner = $2",
                &[&code.as_str(), &self.node.as_str(), &listing],
            )
            .await?;
        Ok(written == 1)
    }

    /// Hands the tables `codes` (this node's, stopped here with their games written) to the other nodes: each
    /// lease lapses now and is no node's (its owner left empty), so that this node's renewals pass it by and the
    /// next heartbeat of another node takes the table over (one claim wins), with no term to wait out. Leases
    /// another node holds are left alone. How many were handed over.
    pub async fn hand_over(&self, db: &Client, codes: &[TableCode]) -> Result<u64, NodesError> {
        let codes: Vec<&str> = codes.iter().map(TableCode::as_str).collect();
        Ok(db
            .execute(
                "UPDATE room_leases SET owner = '', expires = now() \
                 WHERE owner = $1 AND code = ANY($2)",
                &[&self.node.as_str(), &codes],
            )
            .await?)
    }

    /// Gives the table `code` up (its game is over and everyone has gone); a lease held by another node is left
    /// alone.
    pub async fn release(&self, db: &Client, code: &TableCode) -> Result<(), NodesError> {
        db.execute(
            "DELETE FROM room_leases WHERE code = $1 AND owner = $2",
            &[&code.as_str(), &self.node.as_str()],
        )
        .await?;
        Ok(())
    }

    /// The codes this node holds: at a start, those it held before it stopped (their games are resumed).
    pub async fn held(&self, db: &Client) -> Result<Vec<TableCode>, NodesError> {
        let rows = db
            .query(
                "SELECT code FROM room_leases WHERE owner = $1 ORDER BY code",
                &[&self.node.as_str()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| TableCode::new(row.get::<_, String>(0)))
            .collect())
    }

    /// The tables other nodes run and have listed, whose leases are live; with `events`, the events instead
    /// (their codes without [`EVENT_KEY`]).
    pub async fn others(&self, db: &Client, events: bool) -> Result<Vec<Listed>, NodesError> {
        let rows = db
            .query(
                "SELECT code, owner, listing FROM room_leases \
                 WHERE owner <> $1 AND expires > now() AND listing IS NOT NULL \
                     AND starts_with(code, $2) = $3 ORDER BY code",
                &[&self.node.as_str(), &EVENT_KEY, &events],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| Listed {
                code: TableCode::new(unkeyed(row.get(0))),
                node: row.get(1),
                listing: row.get(2),
            })
            .collect())
    }
}

/// Who owns the table `code`, if anyone has claimed it.
pub async fn holder(db: &Client, code: &TableCode) -> Result<Option<Holder>, NodesError> {
    let row = db
        .query_opt(
            "SELECT l.owner, l.expires > now(), l.listing, \
                 extract(epoch FROM now() - n.seen)::float8 \
             FROM room_leases l LEFT JOIN nodes n ON n.name = l.owner WHERE l.code = $1",
            &[&code.as_str()],
        )
        .await?;
    Ok(row.map(|row| Holder {
        node: row.get(0),
        live: row.get(1),
        listing: row.get(2),
        silent_for: row
            .get::<_, Option<f64>>(3)
            .map(|seconds| Duration::from_secs_f64(seconds.max(0.0))),
    }))
}

/// The tables whose leases have lapsed (their node died or stalled): what a surviving node takes over. Oldest
/// lapse first. With `events`, the events instead (their codes without [`EVENT_KEY`]).
pub async fn lapsed(db: &Client, events: bool) -> Result<Vec<TableCode>, NodesError> {
    let rows = db
        .query(
            "SELECT code FROM room_leases WHERE expires <= now() AND starts_with(code, $1) = $2 \
             ORDER BY expires",
            &[&EVENT_KEY, &events],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|row| TableCode::new(unkeyed(row.get(0))))
        .collect())
}

pub use crate::serve::ids::{EVENT_KEY, event_key, event_of_key};

/// A lease key without its event prefix, if it has one.
fn unkeyed(key: String) -> String {
    match key.strip_prefix(EVENT_KEY) {
        Some(code) => code.to_string(),
        None => key,
    }
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

/// The name a node's sessions carry on the database (`application_name`): while a node's process lives, it has
/// one at least (its listening session), and when it dies the database ends them at once.
pub fn session_name(node: &NodeName) -> String {
    format!("{SESSION_PREFIX}{node}")
}

/// What a node's sessions' name starts with, before the node's name.
const SESSION_PREFIX: &str = "crowned node ";

/// Of the nodes `names`, those that do not answer: silent for `within`, or silent for a second with no session
/// left on the database (a node killed: its sessions ended with it, long before its heartbeat is missed).
pub async fn unanswering(
    db: &Client,
    names: &[String],
    within: Duration,
) -> Result<Vec<String>, NodesError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let rows = db
        .query(
            "SELECT name FROM nodes WHERE name = ANY($1)
               AND (seen <= now() - make_interval(secs => $2)
                    OR (seen <= now() - interval '1 second'
                        AND NOT EXISTS (SELECT 1 FROM pg_stat_activity
                                        WHERE application_name = $3 || nodes.name)))
             ORDER BY name",
            &[&names, &within.as_secs_f64(), &SESSION_PREFIX],
        )
        .await?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}

/// The nodes that have not renewed within `within`: those dead (or cut off), by name.
pub async fn silent_nodes(db: &Client, within: Duration) -> Result<Vec<String>, NodesError> {
    let rows = db
        .query(
            "SELECT name FROM nodes WHERE seen <= now() - make_interval(secs => $1) ORDER BY name",
            &[&within.as_secs_f64()],
        )
        .await?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}

/// Of `tables` (each a code with the node thought to run it), those whose lease is live and still that node's:
/// the tables elsewhere that still run where they did.
pub async fn still_held(
    db: &Client,
    tables: &[(NodeName, TableCode)],
) -> Result<HashSet<(NodeName, TableCode)>, NodesError> {
    let codes: Vec<&str> = tables.iter().map(|(_, code)| code.as_str()).collect();
    let rows = db
        .query(
            "SELECT owner, code FROM room_leases WHERE code = ANY($1) AND expires > now()",
            &[&codes],
        )
        .await?;
    let live: HashSet<(String, String)> = rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    Ok(tables
        .iter()
        .filter(|(node, code)| live.contains(&(node.to_string(), code.to_string())))
        .cloned()
        .collect())
}
