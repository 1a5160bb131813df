//! A node's connection to the shared database, made again when it is lost.

use std::sync::Arc;

use tokio_postgres::{Client, Config, NoTls};

use super::NodesError;

/// A connection to the nodes' database that any number of tasks use at once (queries are pipelined on it), and
/// that is made again the next time it is asked for after it was lost.
pub struct Db {
    config: Config,
    client: tokio::sync::Mutex<Option<Arc<Client>>>,
}

impl Db {
    /// Connects (so a wrong address is an error here).
    pub async fn connect(config: Config) -> Result<Db, NodesError> {
        let db = Db {
            config,
            client: tokio::sync::Mutex::new(None),
        };
        db.client().await?;
        Ok(db)
    }

    /// The connection's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The connection: the one made before while it lasts, else a new one.
    pub async fn client(&self) -> Result<Arc<Client>, NodesError> {
        let mut held = self.client.lock().await;
        if let Some(client) = held.as_ref().filter(|client| !client.is_closed()) {
            return Ok(Arc::clone(client));
        }
        let (client, connection) = self.config.connect(NoTls).await?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::warn!(%error, "a connection to the nodes' database failed");
            }
        });
        let client = Arc::new(client);
        *held = Some(Arc::clone(&client));
        Ok(client)
    }
}
