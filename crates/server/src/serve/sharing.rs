//! A player's folder shared with the other nodes while they are connected (only when the server is one node of
//! several): pulled from the database as they sign in, pushed to it as it changes and once more as they leave
//! ([`nodes::folders`](super::nodes::folders) says how, and what happens when two nodes changed one file).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::Shared;
use super::identity::Identity;
use super::nodes::Folders;
use super::nodes::folders::SCAN_EVERY;

/// How long a sign-in waits for the player's folder to come from the database before the player goes on with the
/// copy here (a database that does not answer must not keep them from playing).
const PULL_PATIENCE: Duration = Duration::from_secs(10);

/// How long the last push waits as a player leaves.
const LAST_PUSH_PATIENCE: Duration = Duration::from_secs(10);

/// A player's folder being shared: its scan runs until [`Sharing::finish`].
pub(crate) struct Sharing {
    folders: Arc<Folders>,
    owner: String,
    folder: PathBuf,
    stop: oneshot::Sender<()>,
    scans: JoinHandle<()>,
}

impl Shared {
    /// The folders shared between nodes, and `identity`'s there: `None` for a guest, or on a single server.
    fn shared_folder(&self, identity: &Identity) -> Option<(Arc<Folders>, String, PathBuf)> {
        let folders = self.folders.get()?;
        if identity.is_guest() {
            return None;
        }
        Some((
            Arc::clone(folders),
            identity.fingerprint.to_string(),
            self.folder_of(identity),
        ))
    }

    /// Brings `identity`'s folder here up to date from the other nodes (when this server is one of several); a
    /// failure is logged, and the copy here is used as it is.
    pub async fn pull_folder(&self, identity: &Identity) {
        if let Some((folders, owner, folder)) = self.shared_folder(identity) {
            pull(&folders, &owner, &folder).await;
        }
    }
}

/// Has the recorder push the folder of each player it files a finished game for (a game against a person is
/// filed by the node that ran its table, which may not be the node the player is on).
pub(crate) fn push_filings(shared: &Arc<Shared>) {
    let weak = Arc::downgrade(shared);
    let runtime = tokio::runtime::Handle::current();
    shared.recorder.on_filed(Arc::new(move |person: &Identity| {
        // The recorder lives as long as the server: a hook called after it has gone does nothing.
        let Some((folders, owner, folder)) = weak.upgrade().and_then(|s| s.shared_folder(person))
        else {
            return;
        };
        runtime.spawn(async move {
            if let Err(error) = folders.push(&owner, &folder).await {
                tracing::warn!(player = %owner, %error, "cannot push a filed game");
            }
        });
    }));
}

async fn pull(folders: &Folders, owner: &str, folder: &std::path::Path) {
    match tokio::time::timeout(PULL_PATIENCE, folders.pull(owner, folder)).await {
        Ok(Ok(synced)) => {
            for refused in &synced.refused {
                tracing::warn!(player = %owner, %refused, "a player's file is not shared");
            }
            tracing::debug!(player = %owner, pulled = synced.pulled, pushed = synced.pushed, "folder pulled");
        }
        Ok(Err(error)) => {
            tracing::warn!(player = %owner, %error, "cannot bring the player's folder from the database")
        }
        Err(_) => {
            tracing::warn!(player = %owner, "the player's folder did not come from the database in time")
        }
    }
}

impl Sharing {
    /// Pulls `identity`'s folder and starts pushing its changes; `None` when it is not shared (a guest, or a
    /// single server).
    pub(crate) async fn start(shared: &Shared, identity: &Identity) -> Option<Sharing> {
        let (folders, owner, folder) = shared.shared_folder(identity)?;
        pull(&folders, &owner, &folder).await;
        let (stop, stopped) = oneshot::channel();
        let scans = tokio::spawn(scan(
            Arc::clone(&folders),
            owner.clone(),
            folder.clone(),
            stopped,
        ));
        Some(Sharing {
            folders,
            owner,
            folder,
            stop,
            scans,
        })
    }

    /// Stops the scans and pushes what changed since the last.
    pub(crate) async fn finish(self) {
        let _ = self.stop.send(());
        let _ = self.scans.await;
        let pushed = self.folders.push(&self.owner, &self.folder);
        match tokio::time::timeout(LAST_PUSH_PATIENCE, pushed).await {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => {
                tracing::warn!(player = %self.owner, %error, "cannot push the player's folder as they leave")
            }
            Err(_) => {
                tracing::warn!(player = %self.owner, "the player's folder was not pushed in time as they leave")
            }
        }
    }
}

/// Pushes the folder's changes every [`SCAN_EVERY`] until `stopped`. A failure is logged once, not every scan,
/// until a push succeeds again (what was not pushed is pushed by the next scan that can).
async fn scan(
    folders: Arc<Folders>,
    owner: String,
    folder: PathBuf,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut failing = false;
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            () = tokio::time::sleep(SCAN_EVERY) => {}
        }
        match folders.push(&owner, &folder).await {
            Ok(_) if failing => {
                tracing::info!(player = %owner, "the player's folder is pushed again");
                failing = false;
            }
            Ok(_) => {}
            Err(error) if !failing => {
                tracing::warn!(player = %owner, %error, "cannot push the player's folder");
                failing = true;
            }
            Err(_) => {}
        }
    }
}
