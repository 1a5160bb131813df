//! Where a session's games go, and the autosave policy: the game in progress is written after every change,
//! filed among the saved games when it ends, and cleared when nothing is left to keep.

use crate::app::{GameList, Keep, ListPurpose, Players};
use crate::game::{AnyGame, ClockState};
use crate::store::{AutosaveSlot, Filed, SavedGame, Store, StoreError};

/// A session's files: where `:save` and finished games go, and its own slot for the game in progress.
#[derive(Debug, Default)]
pub struct Saving {
    /// The saved games; `None` when there is no place for files (the game still runs, saving nothing).
    pub store: Option<Store>,
    /// This session's slot for the game in progress, written after every change (when autosave is on and a
    /// slot could be taken).
    pub slot: Option<AutosaveSlot>,
    /// Whether games are saved without being asked: the game in progress after every change, finished and
    /// abandoned games among the saved games. When off, only `:save` writes a game.
    pub autosave: bool,
}

impl Saving {
    /// Saving into `store`, the game in progress into `slot` (when autosave is on).
    pub fn in_store(store: Store, slot: Option<AutosaveSlot>, autosave: bool) -> Saving {
        Saving {
            store: Some(store),
            slot,
            autosave,
        }
    }

    /// Saving nothing at all (`:save` says there is no place for files).
    pub fn nowhere() -> Saving {
        Saving::default()
    }

    /// The autosave follows the game: written while it is in progress, filed among the saved games and
    /// cleared when it ends, cleared when nothing is in progress. Returns where the game was filed, when it was
    /// (the app then knows its file, so that a later save updates it).
    pub fn save_progress(&self, keep: Keep) -> Result<Option<Filed>, StoreError> {
        let (Some(store), Some(slot), true) = (&self.store, &self.slot, self.autosave) else {
            return Ok(None);
        };
        match keep {
            Keep::Nothing => slot.clear().map(|()| None),
            Keep::InProgress(saved) => slot.save(&saved).map(|()| None),
            Keep::Finished(saved) => {
                let filed = store.keep(&saved)?;
                slot.clear()?;
                Ok(Some(filed))
            }
        }
    }

    /// Keeps a game being left unfinished among the saved games (when autosave is on), in its own file when it
    /// has one.
    pub fn archive(&self, saved: &SavedGame) -> Result<(), StoreError> {
        match (&self.store, self.autosave) {
            (Some(store), true) => store.keep(saved).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// `:save`: saves the game (into its own file when it has one, under the name given if any); says where it
    /// went, or why it did not, and where it was filed when it was.
    pub fn save_named(
        &self,
        game: AnyGame,
        players: Players,
        file: Option<std::path::PathBuf>,
        clock: Option<ClockState>,
        name: Option<&str>,
    ) -> (String, Option<Filed>) {
        let Some(store) = &self.store else {
            return ("not saved: there is no place for files".to_string(), None);
        };
        let saved = SavedGame {
            game,
            players,
            file,
            clock,
        };
        match store.save_as(&saved, name) {
            Ok(filed) => (format!("saved as {}", filed.path.display()), Some(filed)),
            Err(e) => (format!("not saved: {e}"), None),
        }
    }

    /// The saved games as a list to load from, or what to tell the player when there is none.
    pub fn saved_games(&self) -> Result<GameList, String> {
        let Some(store) = &self.store else {
            return Err("games are not saved on this machine: there are none to load".into());
        };
        store
            .saved_games()
            .map(|entries| GameList::new("Saved games", entries, ListPurpose::Load))
            .map_err(|e| format!("cannot list the saved games: {e}"))
    }
}
