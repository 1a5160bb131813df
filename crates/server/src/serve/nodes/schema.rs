//! The tables the nodes share (who is alive, who owns which table, and the messages between them) are the
//! PostgreSQL records' own, made by their migrations: a node brings the records' schema up to date before it
//! joins the others, as a server does when it opens its records.

use tokio_postgres::Client;

use super::NodesError;
use crate::serve::records::{MIGRATION_LOCK, POSTGRES_MIGRATIONS};

/// Brings the records' schema, with the nodes' tables, up to date: the migrations not made yet, in order, in one
/// transaction under the records' own advisory lock (two nodes starting at once migrate once, and never beside a
/// server opening its records). A schema newer than this program's is refused. Idempotent: a database already
/// up to date (or whose nodes made their tables before they were records) is left as it is.
pub async fn create_schema(db: &mut Client) -> Result<(), NodesError> {
    let known = POSTGRES_MIGRATIONS.len() as i64;
    let transaction = db.transaction().await?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    transaction
        .batch_execute("CREATE TABLE IF NOT EXISTS crowned_schema (version BIGINT NOT NULL)")
        .await?;
    let found: Option<i64> = transaction
        .query_opt("SELECT version FROM crowned_schema", &[])
        .await?
        .map(|row| row.get(0));
    let from = found.unwrap_or(0);
    if from > known {
        return Err(NodesError::TooNew { found: from, known });
    }
    for sql in POSTGRES_MIGRATIONS.iter().skip(from as usize) {
        transaction.batch_execute(sql).await?;
    }
    match found {
        None => {
            transaction
                .execute(
                    "INSERT INTO crowned_schema (version) VALUES ($1)",
                    &[&known],
                )
                .await?
        }
        Some(_) => {
            transaction
                .execute("UPDATE crowned_schema SET version = $1", &[&known])
                .await?
        }
    };
    transaction.commit().await?;
    Ok(())
}
