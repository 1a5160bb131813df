//! The tables the nodes share: who is alive, who owns which room, and the messages between them.

use tokio_postgres::Client;

use super::NodesError;

/// The nodes' tables. Every statement is idempotent, so that any node may run it at start.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS nodes (
    name text PRIMARY KEY,
    seen timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS room_leases (
    code text PRIMARY KEY,
    owner text NOT NULL,
    expires timestamptz NOT NULL,
    listing text
);
CREATE INDEX IF NOT EXISTS room_leases_by_owner ON room_leases (owner);
CREATE TABLE IF NOT EXISTS node_messages (
    id bigserial PRIMARY KEY,
    recipient text NOT NULL,
    body text NOT NULL,
    sent timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS node_messages_by_recipient ON node_messages (recipient, id);
";

/// A number of our own for the advisory lock that makes the schema's creation one node's at a time (`CREATE
/// TABLE IF NOT EXISTS` run by two sessions at once can still fail on the catalogue's unique index).
const SCHEMA_LOCK: i64 = 0x0063_726f_776e_6564;

/// Creates the nodes' tables where they are missing.
pub async fn create_schema(db: &mut Client) -> Result<(), NodesError> {
    let transaction = db.transaction().await?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
        .await?;
    transaction.batch_execute(SCHEMA).await?;
    transaction.commit().await?;
    Ok(())
}
