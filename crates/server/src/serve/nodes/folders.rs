//! Each player's own folder (their settings, their game in progress against the engine, their saved games) shared
//! by the nodes through the database, so that a player finds them on whichever node they reach.
//!
//! Each node keeps its own copy of the folder, as a single server does, and the database holds the reference copy:
//! one row a file (`player_files`: owner, path, contents, version; a deleted file stays as a row without contents,
//! so that its deletion reaches every node). When a player signs in on a node, their folder there is *pulled*
//! ([`Folders::pull`]); while they play, it is *pushed* ([`Folders::push`]) by a scan of the folder every
//! [`SCAN_EVERY`] and once more as they leave, so a node killed outright loses at most a scan's worth of changes.
//!
//! Each node remembers what it last shared of each file (the version and a digest, in a manifest of its own in the
//! folder), which tells a file changed here since from a file that is only old. The rule when both sides have
//! changed:
//! - a file changed only in the database is taken from it (written, or removed here when it was deleted there);
//! - a file changed only here is pushed (a deletion included);
//! - a file changed on both sides: the database's copy takes the path, and this node's copy is **set aside** under
//!   a new name (an autosave among the saved games as `autosave-kept.pdn`, anything else as `NAME-kept.EXT` beside
//!   it) and pushed as a file of its own; a file deleted here but changed there comes back; a file changed here but
//!   deleted there stays and is pushed. Nothing a player had is lost.
//!
//! Two sessions of one player on two nodes at once each push what they write: the last push of a file wins (the
//! other node's copy is set aside only if that node changes the file again before it next pulls).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio_postgres::Config;

use super::db::Db;
use super::folder_files::{self as files, Local, Manifest, Shared, check_path, digest, scan};
// The limits and the errors belong to the files below; they are named here too, where the sharing is.
pub use super::folder_files::{
    FileRefusal, FoldersError, MAX_FILE, MAX_FILES, MAX_FOLDER, MAX_PATH,
};

/// How often a player's folder is scanned for changes to push while they are connected: what a node killed outright
/// can lose of their changes.
pub const SCAN_EVERY: Duration = Duration::from_secs(1);

/// What one pull or push did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Synced {
    /// Files written or removed here from the database.
    pub pulled: usize,
    /// Files (and deletions) written to the database.
    pub pushed: usize,
    /// Files of this node's set aside for the database's copy, where they went.
    pub set_aside: Vec<PathBuf>,
    /// Files not shared, and why (they stay here).
    pub refused: Vec<FileRefusal>,
}

/// What copying one player's folder into the database did ([`Folders::copy_in`]).
#[derive(Debug, Default)]
pub struct CopiedIn {
    /// Files copied.
    pub copied: usize,
    /// Files not copied, and why.
    pub refused: Vec<FileRefusal>,
    /// The player's files the database holds afterwards.
    pub held: usize,
}

/// The players' folders of this node, shared through the database.
pub struct Folders {
    db: Db,
    /// One lock a player, so that two sessions of one player on this node never sync their folder at once.
    busy: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Folders {
    /// Connects to the database at `config` (a connection of its own: a sign-in that brings a large folder over
    /// must not hold up the nodes' heartbeats), creating the table where it is missing.
    pub async fn connect(config: Config) -> Result<Folders, FoldersError> {
        // The table is the records' (a migration): brought up to date here too, so that the folders work on a
        // database the records have not opened yet. A transaction needs a connection of its own.
        let (mut own, connection) = config.connect(tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        super::schema::create_schema(&mut own).await?;
        drop(own);
        let db = Db::connect(config).await?;
        Ok(Folders {
            db,
            busy: Mutex::default(),
        })
    }

    async fn hold(&self, owner: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
            // Players no longer syncing are forgotten: the map holds only the players being synced.
            busy.retain(|_, lock| Arc::strong_count(lock) > 1);
            Arc::clone(busy.entry(owner.to_string()).or_default())
        };
        lock.lock_owned().await
    }

    /// Brings `folder` (the files of the player `owner` here) up to date from the database, by the rule in the
    /// module's documentation, then pushes what changed here.
    pub async fn pull(&self, owner: &str, folder: &Path) -> Result<Synced, FoldersError> {
        let _held = self.hold(owner).await;
        let db = self.db.client().await?;
        // The database's versions and sizes first: the contents of only the files that changed there, and that
        // are within the limits, are fetched (a row another program wrote is never trusted to be small).
        let rows: BTreeMap<String, (i64, i64)> = db
            .query(
                "SELECT path, version, coalesce(octet_length(contents), 0) FROM player_files \
                 WHERE owner = $1",
                &[&owner],
            )
            .await?
            .into_iter()
            .map(|row| (row.get(0), (row.get(1), i64::from(row.get::<_, i32>(2)))))
            .collect();
        let path = folder.to_path_buf();
        let manifest = tokio::task::spawn_blocking(move || Manifest::load(&path)).await?;
        let mut synced = Synced::default();
        let wanted = wanted(&rows, &manifest, &mut synced.refused);
        let fetched: Vec<(String, i64, Option<Vec<u8>>)> = match wanted.is_empty() {
            true => Vec::new(),
            false => db
                .query(
                    "SELECT path, version, contents FROM player_files \
                     WHERE owner = $1 AND path = ANY($2)",
                    &[&owner, &wanted],
                )
                .await?
                .into_iter()
                .map(|row| (row.get(0), row.get(1), row.get(2)))
                .collect(),
        };
        let in_database: Vec<String> = rows.into_keys().collect();
        let path = folder.to_path_buf();
        let applied = tokio::task::spawn_blocking(move || {
            apply(&path, manifest, fetched, &in_database, &mut synced).map(|()| synced)
        })
        .await??;
        let mut synced = applied;
        drop(db);
        let pushed = self.push_held(owner, folder).await?;
        synced.pushed = pushed.pushed;
        synced.refused.extend(pushed.refused);
        Ok(synced)
    }

    /// Writes to the database what changed in `folder` (the files of the player `owner` here) since it was last
    /// shared: changed files, new files and deletions.
    pub async fn push(&self, owner: &str, folder: &Path) -> Result<Synced, FoldersError> {
        let _held = self.hold(owner).await;
        self.push_held(owner, folder).await
    }

    /// Copies every file of `folder` (the files of the player `owner`) into the database as they are, whatever
    /// the folder's record of what it shared says (a folder brought from elsewhere: `migrate-records`); the
    /// files it copied, those it refused, and the player's files the database holds afterwards.
    pub async fn copy_in(&self, owner: &str, folder: &Path) -> Result<CopiedIn, FoldersError> {
        let _held = self.hold(owner).await;
        let synced = self.push_from(owner, folder, false).await?;
        let held: i64 = self
            .db
            .client()
            .await?
            .query_one(
                "SELECT count(*) FROM player_files WHERE owner = $1 AND contents IS NOT NULL",
                &[&owner],
            )
            .await?
            .get(0);
        Ok(CopiedIn {
            copied: synced.pushed,
            refused: synced.refused,
            held: usize::try_from(held).unwrap_or(0),
        })
    }

    async fn push_held(&self, owner: &str, folder: &Path) -> Result<Synced, FoldersError> {
        self.push_from(owner, folder, true).await
    }

    /// Pushes what changed in `folder` since it was last shared, by its record of that (`known`), or every file
    /// in it (not `known`).
    async fn push_from(
        &self,
        owner: &str,
        folder: &Path,
        known: bool,
    ) -> Result<Synced, FoldersError> {
        let path = folder.to_path_buf();
        let (mut manifest, scanned) = tokio::task::spawn_blocking(move || {
            let manifest = match known {
                true => Manifest::load(&path),
                false => Manifest::default(),
            };
            let scanned = scan(&path, &manifest);
            scanned.map(|scanned| (manifest, scanned))
        })
        .await??;
        let before = manifest.clone();
        let mut synced = Synced {
            refused: scanned.refused.clone(),
            ..Synced::default()
        };
        let refused: Vec<&str> = scanned.refused.iter().map(refused_path).collect();
        for (path, local) in &scanned.files {
            let shared = manifest.files.get(path);
            if shared.and_then(|s| s.digest.as_deref()) == Some(local.digest.as_str()) {
                // Unchanged; its time may have moved (rewritten as it was), which saves reading it next time.
                if let Some(shared) = manifest.files.get_mut(path) {
                    (shared.size, shared.modified) = (local.size, local.modified);
                }
                continue;
            }
            // The scan leaves a file unread only when it matches the manifest's digest: seen above.
            let Some(contents) = &local.contents else {
                continue;
            };
            let client = self.db.client().await?;
            let version: i64 = client
                .query_one(
                    "INSERT INTO player_files (owner, path, contents, version) VALUES ($1, $2, $3, 1) \
                     ON CONFLICT (owner, path) DO UPDATE SET contents = EXCLUDED.contents, \
                     version = player_files.version + 1, changed = now() RETURNING version",
                    &[&owner, path, contents],
                )
                .await?
                .get(0);
            manifest
                .files
                .insert(path.clone(), shared_as(version, Some(local)));
            synced.pushed += 1;
        }
        let gone: Vec<String> = manifest
            .files
            .iter()
            .filter(|(path, shared)| {
                shared.digest.is_some()
                    && !scanned.files.contains_key(*path)
                    && !refused.contains(&path.as_str())
            })
            .map(|(path, _)| path.clone())
            .collect();
        for path in gone {
            let client = self.db.client().await?;
            let row = client
                .query_opt(
                    "UPDATE player_files SET contents = NULL, version = version + 1, changed = now() \
                     WHERE owner = $1 AND path = $2 RETURNING version",
                    &[&owner, &path],
                )
                .await?;
            match row {
                Some(row) => {
                    manifest.files.insert(path, shared_as(row.get(0), None));
                }
                None => {
                    manifest.files.remove(&path);
                }
            }
            synced.pushed += 1;
        }
        if manifest != before {
            let path = folder.to_path_buf();
            tokio::task::spawn_blocking(move || manifest.save(&path)).await??;
        }
        Ok(synced)
    }
}

fn refused_path(refused: &FileRefusal) -> &str {
    match refused {
        FileRefusal::Path { path }
        | FileRefusal::FileTooLarge { path, .. }
        | FileRefusal::TooManyFiles { path }
        | FileRefusal::FolderTooLarge { path } => path,
    }
}

/// The files of `rows` (path: version and size) to fetch: those whose version is not the one this node last shared
/// (`manifest`), within the limits (those past them are added to `refused`, logged, and left in the database).
fn wanted(
    rows: &BTreeMap<String, (i64, i64)>,
    manifest: &Manifest,
    refused: &mut Vec<FileRefusal>,
) -> Vec<String> {
    let (mut files, mut total) = (0, 0);
    let mut wanted = Vec::new();
    for (path, &(version, size)) in rows {
        let size = u64::try_from(size).unwrap_or(0);
        let refusal = if let Err(refusal) = check_path(path) {
            Some(refusal)
        } else if size > MAX_FILE as u64 {
            Some(FileRefusal::FileTooLarge {
                path: path.clone(),
                size,
            })
        } else if files >= MAX_FILES {
            Some(FileRefusal::TooManyFiles { path: path.clone() })
        } else if total + size > MAX_FOLDER as u64 {
            Some(FileRefusal::FolderTooLarge { path: path.clone() })
        } else {
            None
        };
        if let Some(refusal) = refusal {
            tracing::warn!(%refusal, "a player's file in the database is refused");
            refused.push(refusal);
            continue;
        }
        // A deleted file counts toward neither limit.
        if size > 0 {
            files += 1;
            total += size;
        }
        if manifest.files.get(path).map(|shared| shared.version) != Some(version) {
            wanted.push(path.clone());
        }
    }
    wanted
}

/// A manifest entry for a file shared at `version` as `local` is (or deleted).
fn shared_as(version: i64, local: Option<&Local>) -> Shared {
    Shared {
        version,
        digest: local.map(|l| l.digest.clone()),
        size: local.map_or(0, |l| l.size),
        modified: local.map_or(0, |l| l.modified),
    }
}

/// Brings the database's changed files (`fetched`) into `folder` by the module's rule, and saves the manifest.
/// Files this node shared that the database no longer has at all (`in_database` lacks them) are forgotten, so that
/// they are pushed again.
fn apply(
    folder: &Path,
    mut manifest: Manifest,
    fetched: Vec<(String, i64, Option<Vec<u8>>)>,
    in_database: &[String],
    synced: &mut Synced,
) -> Result<(), FoldersError> {
    manifest
        .files
        .retain(|path, _| in_database.binary_search(path).is_ok());
    let local = scan(folder, &manifest)?;
    let refused_here: Vec<&str> = local.refused.iter().map(refused_path).collect();
    // Checked again as fetched: a row may have changed since its size was read.
    for (path, version, contents) in fetched {
        // A file here that is not shared (too large, say) is left as it is, whatever the database has.
        if refused_here.contains(&path.as_str()) {
            continue;
        }
        if let Err(refused) = check_path(&path) {
            tracing::warn!(%refused, "a player's file in the database is refused");
            synced.refused.push(refused);
            continue;
        }
        if let Some(size) = contents.as_ref().map(Vec::len).filter(|&n| n > MAX_FILE) {
            let refused = FileRefusal::FileTooLarge {
                path,
                size: size as u64,
            };
            tracing::warn!(%refused, "a player's file in the database is refused");
            synced.refused.push(refused);
            continue;
        }
        let shared = manifest.files.get(&path);
        let here = local.files.get(&path);
        let changed_here = match (here, shared) {
            (Some(here), Some(shared)) => shared.digest.as_deref() != Some(here.digest.as_str()),
            (None, Some(shared)) => shared.digest.is_some(),
            (Some(_), None) => true,
            (None, None) => false,
        };
        let theirs = contents.as_deref().map(digest);
        let entry = match (changed_here, here, contents) {
            // The same on both sides already.
            (_, Some(here), Some(_)) if theirs.as_deref() == Some(here.digest.as_str()) => {
                shared_as(version, Some(here))
            }
            (_, None, None) => shared_as(version, None),
            // Changed here and deleted there: it stays, and the push writes it again.
            (true, Some(_), None) => shared_as(version, None),
            (false, Some(_), None) => {
                files::remove(folder, &path)?;
                synced.pulled += 1;
                shared_as(version, None)
            }
            (changed, here, Some(contents)) => {
                if changed && here.is_some() {
                    let kept = files::set_aside(folder, &path)?;
                    tracing::info!(file = %path, kept = %kept.display(), "a player's file changed on two nodes: this node's copy is set aside");
                    synced.set_aside.push(kept);
                }
                let (size, modified) = files::write(folder, &path, &contents)?;
                synced.pulled += 1;
                Shared {
                    version,
                    digest: theirs,
                    size,
                    modified,
                }
            }
        };
        manifest.files.insert(path, entry);
    }
    manifest.save(folder)
}

#[cfg(test)]
#[path = "folders_tests.rs"]
mod tests;
