//! Messages between nodes, through the database they share.
//!
//! A message is a row addressed to a node, and a `NOTIFY` on that node's channel (sent in the same statement, so
//! delivered when the row is there to read). The node's [`NodeInbox`] listens on its channel on a connection of its
//! own; each notification (and, in case one was missed while the connection was down, a slow tick) makes it read
//! and delete its rows in the order they were written, and hand them on. Rows rather than notification payloads
//! carry the messages because a payload is limited to 8,000 bytes and is lost when nobody listens; a row waits for
//! a node that reconnects, and [`purge_stale`] drops those nobody came back for.

use std::future::poll_fn;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, mpsc};
use tokio_postgres::{AsyncMessage, Client, Config, NoTls};

use super::db::Db;
use super::{NodeName, NodesError};

/// The most a message may carry, in bytes: a game state with its whole record fits many times over.
pub const MAX_MESSAGE: usize = 256 * 1024;

/// How many messages the inbox reads at once.
const BATCH: i64 = 256;

/// How many messages wait, read but not yet taken, before the inbox stops reading (they wait in the database).
const WAITING: usize = 1024;

/// How often the inbox looks for messages without being told (a notification lost while reconnecting).
const TICK: Duration = Duration::from_secs(1);

/// The longest wait between two tries to reconnect.
const MOST_BACKOFF: Duration = Duration::from_secs(5);

/// The message connections' commits do not wait for the disk. A message lives for the moment between two
/// nodes: if the database server crashes, every node loses its connections and finds its tables again from the
/// records (which stay durable: they are written on connections of their own), so a message lost with the
/// crash costs nothing that waiting for the disk on every message (two commits a move, several milliseconds
/// each on a disk that syncs) would save.
fn unsynced(config: &Config) -> Config {
    let mut config = config.clone();
    let options = match config.get_options() {
        Some(given) if !given.trim().is_empty() => format!("{given} -c synchronous_commit=off"),
        _ => "-c synchronous_commit=off".to_string(),
    };
    config.options(&options);
    config
}

/// A message from another node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Its number: messages from one sender arrive in the order of their numbers.
    pub id: i64,
    /// What it says.
    pub body: String,
}

/// Sends `body` to the node `to`. Messages one sender sends one after another arrive in that order.
pub async fn send(db: &Client, to: &NodeName, body: &str) -> Result<(), NodesError> {
    if body.len() > MAX_MESSAGE {
        return Err(NodesError::TooLarge {
            size: body.len(),
            limit: MAX_MESSAGE,
        });
    }
    db.execute(
        "WITH sent AS (INSERT INTO node_messages (recipient, body) VALUES ($1, $2) RETURNING id) \
         SELECT pg_notify($3, sent.id::text) FROM sent",
        &[&to.as_str(), &body, &to.channel()],
    )
    .await?;
    Ok(())
}

/// Drops the messages older than `age`: those sent to a node that died and did not come back.
pub async fn purge_stale(db: &Client, age: Duration) -> Result<u64, NodesError> {
    Ok(db
        .execute(
            "DELETE FROM node_messages WHERE sent < now() - make_interval(secs => $1)",
            &[&age.as_secs_f64()],
        )
        .await?)
}

/// A node's messages as they arrive; the listening stops when it is dropped.
pub struct NodeInbox {
    messages: mpsc::Receiver<Message>,
}

impl NodeInbox {
    /// Starts listening for the messages to `node` on a connection of its own made from `config`. The first
    /// connection is made before this returns (so a wrong address is an error here); after that, a lost
    /// connection is made again, with a growing pause between tries.
    pub async fn listen(config: Config, node: NodeName) -> Result<NodeInbox, NodesError> {
        let config = unsynced(&config);
        let listener = Listener::connect(&config, &node).await?;
        let (sender, messages) = mpsc::channel(WAITING);
        tokio::spawn(run(config, node, listener, sender));
        Ok(NodeInbox { messages })
    }

    /// The next message; `None` once the inbox has stopped.
    pub async fn next(&mut self) -> Option<Message> {
        self.messages.recv().await
    }
}

/// A listening connection and what wakes it.
struct Listener {
    client: Client,
    wake: Arc<Notify>,
}

impl Listener {
    async fn connect(config: &Config, node: &NodeName) -> Result<Listener, NodesError> {
        let (client, mut connection) = config.connect(NoTls).await?;
        let wake = Arc::new(Notify::new());
        let woken = Arc::clone(&wake);
        tokio::spawn(async move {
            // The connection is driven here; its notifications only wake the reader, which reads the rows. When it
            // ends, the reader's next query fails and it reconnects.
            while let Some(message) = poll_fn(|cx| connection.poll_message(cx)).await {
                match message {
                    Ok(AsyncMessage::Notification(_)) => woken.notify_one(),
                    Ok(_) => {}
                    Err(error) => {
                        tracing::warn!(%error, "the nodes' listening connection failed");
                        break;
                    }
                }
            }
            woken.notify_one();
        });
        // The name is checked to hold only letters, digits, '-' and '_', and is quoted as an identifier.
        client
            .batch_execute(&format!("LISTEN \"{}\"", node.channel()))
            .await?;
        Ok(Listener { client, wake })
    }

    /// Reads and deletes up to a batch of the node's messages, in order.
    async fn take(&self, node: &NodeName) -> Result<Vec<Message>, NodesError> {
        let rows = self
            .client
            .query(
                "DELETE FROM node_messages WHERE id IN ( \
                     SELECT id FROM node_messages WHERE recipient = $1 ORDER BY id LIMIT $2 \
                     FOR UPDATE SKIP LOCKED) \
                 RETURNING id, body",
                &[&node.as_str(), &BATCH],
            )
            .await?;
        let mut messages: Vec<Message> = rows
            .iter()
            .map(|row| Message {
                id: row.get(0),
                body: row.get(1),
            })
            .collect();
        messages.sort_by_key(|message| message.id);
        Ok(messages)
    }
}

async fn run(
    config: Config,
    node: NodeName,
    mut listener: Listener,
    sender: mpsc::Sender<Message>,
) {
    let mut backoff = Duration::from_millis(100);
    loop {
        match listener.take(&node).await {
            Ok(messages) => {
                let full = messages.len() as i64 == BATCH;
                for message in messages {
                    if sender.send(message).await.is_err() {
                        return;
                    }
                }
                backoff = Duration::from_millis(100);
                if full {
                    continue;
                }
                tokio::select! {
                    _ = listener.wake.notified() => {}
                    _ = tokio::time::sleep(TICK) => {}
                    _ = sender.closed() => return,
                }
            }
            Err(error) => {
                tracing::warn!(%error, node = %node, "cannot read the node's messages; connecting again");
                loop {
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = sender.closed() => return,
                    }
                    backoff = (backoff * 2).min(MOST_BACKOFF);
                    match Listener::connect(&config, &node).await {
                        Ok(again) => {
                            listener = again;
                            break;
                        }
                        Err(error) => {
                            tracing::warn!(%error, node = %node, "cannot reach the nodes' database");
                        }
                    }
                }
            }
        }
    }
}

/// A node's connection for sending: made again when it is lost.
pub struct NodeOutbox {
    db: Db,
}

impl NodeOutbox {
    /// Connects for sending (so a wrong address is an error here).
    pub async fn connect(config: Config) -> Result<NodeOutbox, NodesError> {
        Ok(NodeOutbox {
            db: Db::connect(unsynced(&config)).await?,
        })
    }

    /// Sends `body` to the node `to` ([`send`]), connecting again once if the connection was lost.
    pub async fn send(&self, to: &NodeName, body: &str) -> Result<(), NodesError> {
        let client = self.db.client().await?;
        match send(&client, to, body).await {
            Err(NodesError::Postgres(_)) if client.is_closed() => {
                send(&*self.db.client().await?, to, body).await
            }
            sent => sent,
        }
    }
}
