//! Several `crowned serve` processes on one PostgreSQL database, one server to players.
//!
//! Each process is a *node*, known by the name it is started with. A table is owned by exactly one node at a time
//! ([`lease`]): the owner holds a lease row that it renews on a heartbeat, and another node may take the table over
//! only once the lease has lapsed, by one conditional write that exactly one node can win. Nodes talk to each other
//! through the database ([`bus`]): a message is a row addressed to a node, announced with `NOTIFY` on that node's
//! channel, so a player on one node reaches a table owned by another, and the owner stays the one authority on the
//! game. Tournaments are shared the same way: an event has a lease of its own beside the tables' (its summary in
//! it for the other nodes' lobbies), players on other nodes enter it through the same messages, and a node takes
//! it over from the records when its node dies ([`crate::serve::events`]).
//!
//! Every time compared here is the database's own (`now()`), so the nodes' clocks need not agree.

pub mod bus;
pub mod cluster;
mod db;
pub mod event_listing;
mod folder_files;
pub mod folders;
pub mod lease;
pub mod relay;
mod schema;
mod sweep;
pub mod wire;

pub use crate::config::{MAX_NODE_NAME, NodeName, NodeNameError};
pub use bus::{Message, NodeInbox, NodeOutbox};
pub use db::Db;
pub use folders::{Folders, FoldersError};
pub use lease::{Holder, Leases};
pub use relay::{Relay, TablesHere};
pub use schema::create_schema;
pub use sweep::{Resumption, Sweep};

use thiserror::Error;

/// What goes wrong between nodes.
#[derive(Debug, Error)]
pub enum NodesError {
    /// The database failed, or the connection to it was lost.
    #[error("the nodes' database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// The database's schema was made by a newer program.
    #[error(
        "the nodes' database has schema version {found}, newer than this program's {known}; run the newer program"
    )]
    TooNew {
        /// The database's version.
        found: i64,
        /// The newest this program knows.
        known: i64,
    },
    /// A message too large to send: the bus carries game states and requests, never more than this.
    #[error("a message of {size} bytes is larger than the {limit} a node sends")]
    TooLarge {
        /// The message's size.
        size: usize,
        /// The most a message may have.
        limit: usize,
    },
}

#[cfg(test)]
mod tests;
