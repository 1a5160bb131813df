//! The node's own copy of a player's folder, as [`folders`](super::folders) shares it: which files are shared and
//! which are refused, what each holds now, and what each held when it was last shared (the *manifest*, a small file
//! of this node's own in the folder); and the limits of what is shared, with the errors of sharing.
//!
//! Everything here blocks on the disk: it runs on the runtime's blocking threads.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use super::NodesError;
use crate::store::{rename_new, write_atomic, write_new};

/// The manifest's name in the folder. It starts with a dot: hidden names are never shared, so each node keeps its
/// own.
/// The largest file shared. The largest a player's folder holds is a file of saved games, a few kilobytes a game:
/// a megabyte is hundreds of games, and a larger file is no file the program writes for a player.
pub const MAX_FILE: usize = 1 << 20;
/// The most files shared of one player: saved games are filed one a file, and a few hundred is years of play; more
/// would make every scan and every sign-in slow for one player's sake.
pub const MAX_FILES: usize = 512;
/// The most bytes shared of one player in all: what a sign-in may have to bring over, kept well under what a node
/// holds in memory for one player at once.
pub const MAX_FOLDER: usize = 16 << 20;
/// The longest path of a shared file in its folder.
pub const MAX_PATH: usize = 255;

/// A file that is not shared, and why.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FileRefusal {
    /// A path that is not a shared file's inside a folder (`..`, absolute, hidden, a lock).
    #[error("{path:?} is not a shared file's path inside a player's folder")]
    Path {
        /// The path (cut short).
        path: String,
    },
    /// A file larger than [`MAX_FILE`].
    #[error("{path}: {size} bytes is more than the {MAX_FILE} a shared file may have")]
    FileTooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
    },
    /// A file past the [`MAX_FILES`] shared of one player.
    #[error("{path}: more than {MAX_FILES} files of one player are not shared")]
    TooManyFiles {
        /// The file.
        path: String,
    },
    /// A file past the [`MAX_FOLDER`] bytes shared of one player.
    #[error("{path}: more than {MAX_FOLDER} bytes of one player are not shared")]
    FolderTooLarge {
        /// The file.
        path: String,
    },
}

/// What goes wrong sharing a folder.
#[derive(Debug, Error)]
pub enum FoldersError {
    /// The database failed, or the connection to it was lost.
    #[error("the players' files in the database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// The database could not be reached.
    #[error("{0}")]
    Nodes(#[from] NodesError),
    /// A file here could not be read or written.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        cause: std::io::Error,
    },
    /// A file refused (a path out of the folder, say).
    #[error("{0}")]
    Refused(#[from] FileRefusal),
    /// The blocking work on the folder did not finish (its thread panicked).
    #[error("the work on a player's folder failed: {0}")]
    Blocking(#[from] tokio::task::JoinError),
}

pub(super) const MANIFEST: &str = ".crowned-shared.json";

/// How deep a shared file may lie in the folder (`data/games/x.pdn` is three deep): deeper files are not looked
/// for, so a folder with a loop or a huge tree in it costs a scan little.
const MAX_DEPTH: usize = 4;

/// A file changed this recently is read and compared whatever its size and time say: a file rewritten within the
/// file system's clock tick, at the same size, would otherwise look unchanged. Scans come more often than this,
/// so every write is read at least once after it.
const RACY: Duration = Duration::from_secs(2);

/// What a file held when it was last shared with the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Shared {
    /// The database's version of it then.
    pub version: i64,
    /// Its contents' digest, or `None` when it was shared as deleted.
    pub digest: Option<String>,
    /// Its size and modification time here then (nanoseconds since 1970), so that an unchanged file is not read.
    pub size: u64,
    pub modified: u128,
}

/// What this node last shared of a folder, by relative path (`config/config.toml`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Manifest {
    pub files: BTreeMap<String, Shared>,
}

impl Manifest {
    /// The folder's manifest; empty when there is none or it cannot be read (every local file then counts as not
    /// shared yet, which never loses one: see [`super::folders`]).
    pub fn load(folder: &Path) -> Manifest {
        let path = folder.join(MANIFEST);
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                tracing::warn!(%error, path = %path.display(), "a shared folder's manifest is unreadable");
                Manifest::default()
            }),
            Err(_) => Manifest::default(),
        }
    }

    /// Writes the manifest into the folder, all at once.
    pub fn save(&self, folder: &Path) -> Result<(), FoldersError> {
        let path = folder.join(MANIFEST);
        let text = serde_json::to_vec(self).unwrap_or_default();
        fs::create_dir_all(folder).map_err(io_error(folder))?;
        write_atomic(&path, &text).map_err(io_error(&path))
    }
}

/// A shared file as it is here now.
#[derive(Clone, Debug)]
pub(super) struct Local {
    pub size: u64,
    pub modified: u128,
    /// Its digest.
    pub digest: String,
    /// Its contents, when they were read for this scan (a file unchanged since it was shared is not read).
    pub contents: Option<Vec<u8>>,
}

/// A folder's shared files as they are here now, and the files refused.
#[derive(Debug, Default)]
pub(super) struct Scan {
    pub files: BTreeMap<String, Local>,
    pub refused: Vec<FileRefusal>,
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> FoldersError + '_ {
    move |cause| FoldersError::Io {
        path: path.to_path_buf(),
        cause,
    }
}

/// The hex SHA-256 of `bytes`.
pub(super) fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `path` names a file that is shared, and is a path inside a folder: relative, `/`-separated, no `.` or
/// `..`, no hidden part (temporary files and the manifest are hidden), not a lock (locks belong to one node's
/// running programs), printable, and short.
pub(super) fn check_path(path: &str) -> Result<(), FileRefusal> {
    let refused = || FileRefusal::Path {
        path: path.chars().take(MAX_PATH).collect(),
    };
    if path.is_empty() || path.len() > MAX_PATH || path.ends_with(".lock") {
        return Err(refused());
    }
    let parts_fine = path.split('/').all(|part| {
        !part.is_empty()
            && !part.starts_with('.')
            && !part.contains('\\')
            && part.chars().all(|c| !c.is_control())
    });
    let relative = Path::new(path)
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    match parts_fine && relative {
        true => Ok(()),
        false => Err(refused()),
    }
}

fn modified_nanos(metadata: &fs::Metadata) -> u128 {
    metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos())
}

/// The shared files in `folder` now. A file whose size and time are as `manifest` has them, and that has not
/// changed lately, is taken as unchanged without being read; the others are read. Files past the limits are
/// refused (left here, not shared).
pub(super) fn scan(folder: &Path, manifest: &Manifest) -> Result<Scan, FoldersError> {
    let mut found = Vec::new();
    walk(folder, "", 0, &mut found)?;
    found.sort();
    let recent = SystemTime::now()
        .checked_sub(RACY)
        .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    let mut scan = Scan::default();
    let mut total: u64 = 0;
    for relative in found {
        if let Err(refused) = check_path(&relative) {
            scan.refused.push(refused);
            continue;
        }
        let path = folder.join(&relative);
        // Gone since the directory was listed: as if it had never been there.
        let Ok(metadata) = fs::symlink_metadata(&path) else {
            continue;
        };
        let size = metadata.len();
        if size > MAX_FILE as u64 {
            scan.refused.push(FileRefusal::FileTooLarge {
                path: relative,
                size,
            });
            continue;
        }
        if scan.files.len() >= MAX_FILES {
            scan.refused
                .push(FileRefusal::TooManyFiles { path: relative });
            continue;
        }
        if total + size > MAX_FOLDER as u64 {
            scan.refused
                .push(FileRefusal::FolderTooLarge { path: relative });
            continue;
        }
        total += size;
        let modified = modified_nanos(&metadata);
        let known = manifest.files.get(&relative).and_then(|shared| {
            let same = shared.size == size && shared.modified == modified && modified < recent;
            shared.digest.clone().filter(|_| same)
        });
        let local = match known {
            Some(digest) => Local {
                size,
                modified,
                digest,
                contents: None,
            },
            None => match fs::read(&path) {
                Ok(bytes) => Local {
                    size,
                    modified,
                    digest: digest(&bytes),
                    contents: Some(bytes),
                },
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io_error(&path)(e)),
            },
        };
        scan.files.insert(relative, local);
    }
    Ok(scan)
}

/// Lists the regular files under `dir` (their paths relative to the folder, with `/`), not following links, not
/// below [`MAX_DEPTH`], and not hidden.
fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    found: &mut Vec<String>,
) -> Result<(), FoldersError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        // A name that is not UTF-8 cannot be a path in the database, and the store never writes one.
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') || name.ends_with(".lock") {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let relative = format!("{prefix}{name}");
        if kind.is_dir() && depth + 1 < MAX_DEPTH {
            walk(&entry.path(), &format!("{relative}/"), depth + 1, found)?;
        } else if kind.is_file() {
            found.push(relative);
        }
    }
    Ok(())
}

/// The file `relative` under `folder`, once every directory on the way is checked to be a real one (not a link
/// out of the folder).
fn inside(folder: &Path, relative: &str) -> Result<PathBuf, FoldersError> {
    check_path(relative)?;
    let mut path = folder.to_path_buf();
    let parts: Vec<&str> = relative.split('/').collect();
    for part in &parts[..parts.len() - 1] {
        path.push(part);
        match fs::symlink_metadata(&path) {
            Ok(metadata) if !metadata.is_dir() => {
                return Err(FoldersError::Refused(FileRefusal::Path {
                    path: relative.to_string(),
                }));
            }
            _ => {}
        }
    }
    Ok(folder.join(relative))
}

/// Writes `contents` as the file `relative` under `folder` (all at once); its size and time after.
pub(super) fn write(
    folder: &Path,
    relative: &str,
    contents: &[u8],
) -> Result<(u64, u128), FoldersError> {
    let path = inside(folder, relative)?;
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_error(parent))?;
    }
    write_atomic(&path, contents).map_err(io_error(&path))?;
    let metadata = fs::symlink_metadata(&path).map_err(io_error(&path))?;
    Ok((metadata.len(), modified_nanos(&metadata)))
}

/// Removes the file `relative` under `folder` (already gone is fine).
pub(super) fn remove(folder: &Path, relative: &str) -> Result<(), FoldersError> {
    let path = inside(folder, relative)?;
    match fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&path)(e)),
        _ => Ok(()),
    }
}

/// Moves the file `relative` under `folder` to a new name, never over another file, so that the database's copy
/// can take its place: an autosave goes among the saved games (`data/games/autosave-kept.pdn`), where the player
/// finds and loads it; anything else stays in its directory (`config/config-kept.toml`). Returns the new path.
pub(super) fn set_aside(folder: &Path, relative: &str) -> Result<PathBuf, FoldersError> {
    let path = inside(folder, relative)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, "kept"));
    if relative.starts_with("data/autosave") && ext == "pdn" {
        let games = folder.join("data/games");
        let contents = fs::read(&path).map_err(io_error(&path))?;
        let kept =
            write_new(&games, "autosave-kept", "pdn", &contents).map_err(io_error(&games))?;
        fs::remove_file(&path).map_err(io_error(&path))?;
        return Ok(kept);
    }
    rename_new(&path, &format!("{stem}-kept"), ext).map_err(io_error(&path))
}
