//! The game in progress, saved after every change, one slot per running program.
//!
//! Several programs may run on the same files at once (two terminals, or an SSH reconnect while the old
//! session lives). Each takes a slot of its own (`autosave.pdn`, `autosave-2.pdn`, ...) and holds an exclusive
//! lock on the slot's lock file (`autosave.lock`, `autosave-2.lock`, ...) for as long as it runs, so no two
//! programs ever write the same autosave. The lock file is separate because the autosave itself is replaced by
//! a rename on every save, and a lock belongs to the file it was taken on. The operating system frees a lock
//! when its process ends in any way, a crash or `kill -9` included, so a game left behind by a program that
//! is gone is free to be resumed by the next one, while a game that is still open elsewhere is not offered.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::files::{rename_new, write_atomic};
use super::locks::try_lock;
use super::{SavedGame, Store, StoreError, from_pdn, io_error, own_file_name, to_pdn};

/// The most programs that can keep a game in progress at once on one set of files.
pub const MAX_SLOTS: usize = 64;

/// A slot for the game in progress, held by this program alone while the value lives.
#[derive(Debug)]
pub struct AutosaveSlot {
    file: PathBuf,
    games_dir: PathBuf,
    /// Holding the open file holds the lock; dropping it lets the lock go.
    _lock: File,
}

/// What taking a slot found.
#[derive(Debug)]
pub struct Claim {
    /// This program's slot.
    pub slot: AutosaveSlot,
    /// The unfinished game in the slot, left by a program that has ended: offered to be resumed.
    pub unfinished: Option<SavedGame>,
    /// How many unfinished games are open in programs that are still running (not offered).
    pub open_elsewhere: usize,
    /// Autosaves that could not be read, each moved aside (never overwritten), with where it went and why.
    pub set_aside: Vec<(PathBuf, StoreError)>,
}

impl Store {
    /// Takes a slot for this program's game in progress: the first free slot that holds an unfinished game (to
    /// be offered), else the first free slot. Slots held by running programs are counted, not touched. An
    /// unreadable autosave in a free slot is moved aside and reported.
    pub fn claim_autosave(&self) -> Result<Claim, StoreError> {
        fs::create_dir_all(&self.data_dir).map_err(io_error(&self.data_dir))?;
        let mut open_elsewhere = 0;
        let mut set_aside = Vec::new();
        let mut empty: Option<AutosaveSlot> = None;
        for n in 1..=MAX_SLOTS {
            let (file, lock_file) = (self.slot_file(n), self.slot_lock(n));
            let in_use = file.symlink_metadata().is_ok() || lock_file.symlink_metadata().is_ok();
            if !in_use && empty.is_some() {
                // Slots are taken in order: past the last one ever used there is nothing more to find.
                break;
            }
            let Some(lock) = try_lock(&lock_file)? else {
                if matches!(read_slot(&file, &self.games_dir()), Ok(Some(saved)) if unfinished(&saved))
                {
                    open_elsewhere += 1;
                }
                continue;
            };
            let slot = AutosaveSlot {
                file,
                games_dir: self.games_dir(),
                _lock: lock,
            };
            match slot.load() {
                Ok(Some(saved)) if unfinished(&saved) => {
                    return Ok(Claim {
                        slot,
                        unfinished: Some(saved),
                        open_elsewhere: open_elsewhere + self.count_open_after(n),
                        set_aside,
                    });
                }
                Ok(_) => {}
                Err(error) => match rename_new(&slot.file, "autosave-unreadable", "pdn") {
                    Ok(kept) => set_aside.push((kept, error)),
                    // A file that can be neither read nor moved stays where it is, and so does its slot.
                    Err(_) => continue,
                },
            }
            if empty.is_none() {
                empty = Some(slot);
            }
        }
        match empty {
            Some(slot) => Ok(Claim {
                slot,
                unfinished: None,
                open_elsewhere,
                set_aside,
            }),
            None => Err(StoreError::AllSlotsTaken(MAX_SLOTS)),
        }
    }

    /// The unfinished games held by running programs in the slots after `n` (counted, not touched).
    fn count_open_after(&self, n: usize) -> usize {
        (n + 1..=MAX_SLOTS)
            .map(|m| (self.slot_file(m), self.slot_lock(m)))
            .take_while(|(file, lock)| file.exists() || lock.exists())
            .filter(|(file, lock)| {
                matches!(try_lock(lock), Ok(None))
                    && matches!(read_slot(file, &self.games_dir()), Ok(Some(saved)) if unfinished(&saved))
            })
            .count()
    }

    /// The autosave of slot `n` (1-based): `autosave.pdn`, then `autosave-2.pdn`...
    pub fn slot_file(&self, n: usize) -> PathBuf {
        match n {
            1 => self.data_dir.join("autosave.pdn"),
            n => self.data_dir.join(format!("autosave-{n}.pdn")),
        }
    }

    fn slot_lock(&self, n: usize) -> PathBuf {
        match n {
            1 => self.data_dir.join("autosave.lock"),
            n => self.data_dir.join(format!("autosave-{n}.lock")),
        }
    }
}

impl AutosaveSlot {
    /// The slot's autosave file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Saves the game in progress.
    pub fn save(&self, saved: &SavedGame) -> Result<(), StoreError> {
        write_atomic(&self.file, to_pdn(saved).as_bytes()).map_err(io_error(&self.file))
    }

    /// The game saved in the slot, if there is one.
    pub fn load(&self) -> Result<Option<SavedGame>, StoreError> {
        read_slot(&self.file, &self.games_dir)
    }

    /// Forgets the game in progress (it has been filed or the player started another).
    pub fn clear(&self) -> Result<(), StoreError> {
        match fs::remove_file(&self.file) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(&self.file)(e)),
            _ => Ok(()),
        }
    }
}

/// Whether a saved game is one to go on with.
fn unfinished(saved: &SavedGame) -> bool {
    saved.game.outcome().is_none() && !saved.game.is_empty()
}

/// Reads an autosave. Bytes that are not UTF-8 make it unreadable (not an I/O error), like any other damage.
fn read_slot(path: &Path, games_dir: &Path) -> Result<Option<SavedGame>, StoreError> {
    let bytes = match crate::bounded::read_bounded(path, super::library::MAX_GAMES_TEXT) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let corrupt = |reason: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let text = String::from_utf8(bytes).map_err(|_| corrupt("it is not UTF-8 text".into()))?;
    let mut saved = from_pdn(&text).map_err(corrupt)?;
    // The tag names a file of the saved games, and nothing outside them.
    saved.file = saved
        .file
        .as_deref()
        .and_then(|name| name.to_str())
        .and_then(own_file_name)
        .map(|name| games_dir.join(name));
    Ok(Some(saved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;

    fn temp_home(name: &str) -> PathBuf {
        test_support::temp_home("autosave", name)
    }

    fn game(moves: &[&str]) -> SavedGame {
        test_support::played(moves)
    }

    #[test]
    fn a_game_open_elsewhere_is_not_offered_and_each_program_has_its_own_slot() {
        let home = temp_home("two");
        let store = Store::under(&home);
        let first = store.claim_autosave().expect("claimed");
        assert!(first.unfinished.is_none());
        first.slot.save(&game(&["11-15"])).expect("saved");

        let second = store.claim_autosave().expect("claimed");
        assert!(
            second.unfinished.is_none(),
            "the first program's game is not offered"
        );
        assert_eq!(second.open_elsewhere, 1);
        assert_ne!(second.slot.file(), first.slot.file());
        second.slot.save(&game(&["9-13"])).expect("saved");

        // The first program ends: its game is free, and offered to the next program.
        drop(first);
        let third = store.claim_autosave().expect("claimed");
        let offered = third.unfinished.expect("offered");
        assert_eq!(offered.game.moves().len(), 1);
        assert_eq!(
            third.open_elsewhere, 1,
            "the second program's game is still open"
        );
        assert_eq!(third.slot.file(), store.slot_file(1));
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn a_game_behind_an_open_slot_is_found() {
        let home = temp_home("behind");
        let store = Store::under(&home);
        let first = store.claim_autosave().expect("claimed");
        let second = store.claim_autosave().expect("claimed");
        second.slot.save(&game(&["11-15", "23-19"])).expect("saved");
        drop(second);
        // Slot 1 is open but empty; slot 2 holds a game nobody has.
        let third = store.claim_autosave().expect("claimed");
        assert_eq!(third.slot.file(), store.slot_file(2));
        assert!(third.unfinished.is_some());
        drop(first);
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn an_unreadable_autosave_is_moved_aside_and_the_slot_used() {
        let home = temp_home("unreadable");
        let store = Store::under(&home);
        fs::create_dir_all(&store.data_dir).expect("made");
        fs::write(store.slot_file(1), b"\xff\xfe not a game").expect("written");
        let claim = store.claim_autosave().expect("claimed");
        assert_eq!(claim.set_aside.len(), 1);
        let (kept, why) = &claim.set_aside[0];
        assert!(kept.exists(), "{}", kept.display());
        assert!(why.to_string().contains("not UTF-8"), "{why}");
        assert_eq!(claim.slot.file(), store.slot_file(1));
        assert!(!store.slot_file(1).exists());
        // The new game is protected as usual.
        claim.slot.save(&game(&["11-15"])).expect("saved");
        assert!(claim.slot.load().expect("read").is_some());
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn finished_and_empty_games_are_not_offered() {
        let home = temp_home("finished");
        let store = Store::under(&home);
        let claim = store.claim_autosave().expect("claimed");
        claim.slot.save(&game(&[])).expect("saved");
        drop(claim);
        let claim = store.claim_autosave().expect("claimed");
        assert!(claim.unfinished.is_none());
        claim.slot.clear().expect("cleared");
        claim.slot.clear().expect("clearing twice is fine");
        let _ = fs::remove_dir_all(&home);
    }
}
