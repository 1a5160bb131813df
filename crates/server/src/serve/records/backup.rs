//! A consistent copy of SQLite records, taken while a server writes them (`crowned serve backup DEST`).
//!
//! SQLite's `VACUUM INTO` reads the whole database inside one read transaction and writes it, compacted, to a
//! new file: the copy is the records as they stood at one moment, whatever is committed meanwhile, and in WAL
//! mode the reading holds up no writer (a move is committed as usual while the copy is made). The copy is
//! written under a temporary name, synced, checked (`PRAGMA integrity_check`, its schema version, what it
//! holds) and only then given its name, so a copy that failed half-way is never mistaken for a backup. An
//! existing file is never replaced.
//!
//! Restoring is the same file put back: stop the server, move the copy to the records' place
//! (`server/records.sqlite` in the data folder), start it. A backup is of the records alone; the players'
//! folders (saved games, settings) are plain files beside them, copied as files.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use thiserror::Error;

use super::schema::SQLITE_MIGRATIONS as MIGRATIONS;

/// What a backup holds, as read back from the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackupFigures {
    /// Players known.
    pub players: i64,
    /// Games, finished or not.
    pub games: i64,
    /// Of those, the finished ones.
    pub finished: i64,
    /// Moves of all games.
    pub moves: i64,
    /// The schema version.
    pub version: i64,
    /// The copy's size.
    pub bytes: u64,
}

/// A backup that could not be made.
#[derive(Debug, Error)]
pub enum BackupError {
    /// The destination exists: a backup never replaces a file.
    #[error("{0} already exists; choose another file (an existing file is never replaced)")]
    Exists(PathBuf),
    /// There are no records to copy.
    #[error("there are no records at {0}: has the server run here?")]
    NoRecords(PathBuf),
    /// SQLite failed to read the records or to write the copy.
    #[error("the backup failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The copy could not be synced or named.
    #[error("the backup failed: {0}")]
    Io(#[from] std::io::Error),
    /// The copy does not pass SQLite's check (removed).
    #[error("the copy does not pass SQLite's integrity check ({0}); it was removed")]
    Damaged(String),
}

/// Copies the SQLite records at `from` to the new file `to` and checks the copy.
pub fn backup_sqlite(from: &Path, to: &Path) -> Result<BackupFigures, BackupError> {
    if to.exists() {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    if !from.is_file() {
        return Err(BackupError::NoRecords(from.to_path_buf()));
    }
    // Opened for reading and writing but never created: a WAL database's readers take part in its shared
    // memory, which a read-only opening of a file a server holds cannot always do.
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    source.busy_timeout(std::time::Duration::from_secs(10))?;
    let partial = partial_name(to);
    // A leftover of a backup that failed before is ours to replace.
    let _ = std::fs::remove_file(&partial);
    let copied = source
        .execute("VACUUM INTO ?1", [partial.to_string_lossy()])
        .map_err(BackupError::from)
        .and_then(|_| check(&partial));
    let figures = match copied {
        Ok(figures) => figures,
        Err(why) => {
            let _ = std::fs::remove_file(&partial);
            return Err(why);
        }
    };
    // Synced, then named only now, and never over a file that appeared meanwhile (a link, unlike a rename, fails
    // on an existing name). A copy that cannot be named is not left behind.
    let named = std::fs::File::open(&partial)
        .and_then(|file| file.sync_all())
        .and_then(|()| std::fs::hard_link(&partial, to));
    let _ = std::fs::remove_file(&partial);
    named?;
    if let Some(folder) = to.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::File::open(folder)?.sync_all()?;
    }
    Ok(figures)
}

/// The name a copy is written under until it has been checked.
fn partial_name(to: &Path) -> PathBuf {
    let mut name = to.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Checks the records file at `path` as a restore would need it, and says what it holds.
pub fn check(path: &Path) -> Result<BackupFigures, BackupError> {
    let db = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let verdict: String = db.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
    if verdict != "ok" {
        return Err(BackupError::Damaged(verdict));
    }
    let version: i64 = db.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if !(1..=known).contains(&version) {
        return Err(BackupError::Damaged(format!(
            "schema version {version}, where this program knows 1 to {known}"
        )));
    }
    let count = |sql: &str| db.query_row(sql, [], |row| row.get::<_, i64>(0));
    Ok(BackupFigures {
        players: count("SELECT count(*) FROM players")?,
        games: count("SELECT count(*) FROM games")?,
        finished: count("SELECT count(*) FROM games WHERE result IS NOT NULL")?,
        moves: count("SELECT count(*) FROM moves")?,
        version,
        bytes: std::fs::metadata(path)?.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::identity::Identity;
    use crate::serve::records::{
        FinishedGame, GameRecords as _, NewGame, PlayerRecords as _, SqliteRecords,
    };

    /// A folder of this test's own, empty.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("crowned-backup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn player(name: &str) -> Identity {
        Identity {
            fingerprint: format!("SHA256:{name}").into(),
            name: name.to_string(),
        }
    }

    /// Plays `games` short finished games into `records`.
    fn play(records: &mut SqliteRecords, games: usize) {
        let (ann, bob) = (player("ann"), player("bob"));
        records.seen(&ann).expect("seen");
        records.seen(&bob).expect("seen");
        for _ in 0..games {
            let game = records
                .start_game(&NewGame {
                    variant: "english",
                    black: &ann.fingerprint,
                    white: &bob.fingerprint,
                    rated: true,
                    clock: "5+3",
                    code: &"K7QX".into(),
                    definition: None,
                })
                .expect("started");
            for (ply, text) in ["11-15", "23-19"].iter().enumerate() {
                records.add_move(game, ply, text, None).expect("a move");
            }
            let won = FinishedGame {
                result: "1-0",
                pdn: "[Result \"1-0\"]\n1. 11-15 23-19 1-0\n",
                black_score: 1.0,
            };
            records.record_result(game, &won).expect("finished");
        }
    }

    #[test]
    fn a_copy_taken_while_games_are_written_is_whole_checked_and_opens_as_records() {
        let folder = scratch("copy");
        let (from, to) = (folder.join("records.sqlite"), folder.join("copy.sqlite"));
        let mut records = SqliteRecords::open(&from).expect("opens");
        play(&mut records, 20);
        // Games go on being written while the copy is made: it holds the records of one moment, whole games
        // only (each game's moves and result are written in one go here, so a copy holds all of a game's moves
        // or none).
        let writer = std::thread::spawn(move || play(&mut records, 200));
        let figures = backup_sqlite(&from, &to).expect("a backup");
        writer.join().expect("the writer ends");
        assert!(figures.games >= 20 && figures.games <= 220, "{figures:?}");
        assert_eq!(figures.players, 2);
        assert!(figures.moves >= 2 * figures.finished, "{figures:?}");
        assert!(figures.bytes > 0);
        assert!(!partial_name(&to).exists(), "the temporary copy is gone");
        // The copy is records a server opens, with every finished game it counted.
        let mut restored = SqliteRecords::open(&to).expect("the copy opens");
        let ann = player("ann").fingerprint;
        assert_eq!(
            restored.games_of(&ann).expect("games").len() as i64,
            figures.finished
        );
        assert_eq!(check(&to).expect("checked").games, figures.games);
        restored
            .seen(&player("cy"))
            .expect("a restored copy takes writes");
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn a_backup_never_replaces_a_file_and_needs_records() {
        let folder = scratch("replace");
        let from = folder.join("records.sqlite");
        let to = folder.join("copy.sqlite");
        assert!(matches!(
            backup_sqlite(&from, &to),
            Err(BackupError::NoRecords(_))
        ));
        play(&mut SqliteRecords::open(&from).expect("opens"), 1);
        std::fs::write(&to, b"something of the operator's").expect("written");
        assert!(matches!(
            backup_sqlite(&from, &to),
            Err(BackupError::Exists(_))
        ));
        assert_eq!(
            std::fs::read(&to).expect("read"),
            b"something of the operator's"
        );
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn a_damaged_file_fails_the_check() {
        let folder = scratch("damaged");
        let path = folder.join("records.sqlite");
        play(&mut SqliteRecords::open(&path).expect("opens"), 30);
        let to = folder.join("copy.sqlite");
        backup_sqlite(&path, &to).expect("a backup");
        // Pages of the copy overwritten in the middle.
        let mut bytes = std::fs::read(&to).expect("read");
        let middle = bytes.len() / 2;
        for b in &mut bytes[middle..middle + 2048] {
            *b = 0xA5;
        }
        std::fs::write(&to, &bytes).expect("written");
        assert!(check(&to).is_err());
        let _ = std::fs::remove_dir_all(&folder);
    }
}
