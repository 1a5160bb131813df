//! Filing games among the saved games: one game, one file.
//!
//! A game gets an identity the first time it is filed ([`GAME_ID_TAG`], sixteen hex digits nobody can guess),
//! which it keeps in its tags from then on: in the autosave, in its file, and in the app while it is played. A
//! later save of the same game (after an undo and a redo, at its end, under a name) goes back into its file, but
//! only when the file there still holds the same game: a file that has changed hands (replaced, or another game's
//! under the same name) is never written over, and the game is filed anew instead. A game saved under a name
//! carries it ([`NAME_TAG`]), which the list of saved games shows; saving it under another name moves it to a
//! file of that name (written first, the old file removed after).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::files::unguessable;
use super::{
    SavedGame, Store, StoreError, default_name, from_pdn, io_error, own_file_name, safe_name,
    to_pdn, write_atomic, write_new,
};

/// The tag that holds a game's identity among the saved games.
pub const GAME_ID_TAG: &str = "CrownedGame";
/// The tag that holds the name a game was saved under (`:save NAME`), shown in the list of saved games.
pub const NAME_TAG: &str = "CrownedName";

/// Where a game was filed, and what it was filed as: the app keeps both, so that the next save of the game goes
/// to the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filed {
    /// The file written.
    pub path: PathBuf,
    /// The game's identity.
    pub id: String,
    /// The name it was saved under, if it has one.
    pub name: Option<String>,
}

/// What is in a saved-games file as far as filing goes.
enum Holder {
    /// Nothing: the file is not there.
    Nobody,
    /// A game of the program's own with this identity (`None`: saved before games had one).
    Game(Option<String>),
    /// Something else: a file that cannot be read as one of the program's saves.
    Stranger,
}

impl Store {
    /// Files a game as a new file among the saved games, `name.pdn` (or a name made of the date and the
    /// players), never over another file. The game keeps its identity, or is given one.
    pub fn file_game(&self, saved: &SavedGame, name: Option<&str>) -> Result<Filed, StoreError> {
        let name = name.map(safe_name).filter(|n| !n.is_empty());
        let (stamped, filed) = stamped(saved, name.as_deref());
        let stem = name.unwrap_or_else(|| default_name(saved, SystemTime::now()));
        let dir = self.games_dir();
        let path =
            write_new(&dir, &stem, "pdn", to_pdn(&stamped).as_bytes()).map_err(io_error(&dir))?;
        Ok(Filed { path, ..filed })
    }

    /// Saves a game again into `file`, the saved-games file it came from, when that file still holds this
    /// game (or is gone); otherwise, and for a path that is not one of the saved games' files, the game is
    /// filed anew and nothing else is touched.
    pub fn refile_game(&self, saved: &SavedGame, file: &Path) -> Result<Filed, StoreError> {
        let Some(path) = self.own_file(file) else {
            return self.file_game(saved, None);
        };
        let (stamped, filed) = stamped(saved, None);
        match holder(&path) {
            Holder::Game(id) if id == saved_id(saved) => {
                write_atomic(&path, to_pdn(&stamped).as_bytes()).map_err(io_error(&path))?;
                Ok(Filed { path, ..filed })
            }
            Holder::Nobody => {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let dir = self.games_dir();
                let path = write_new(&dir, &stem, "pdn", to_pdn(&stamped).as_bytes())
                    .map_err(io_error(&dir))?;
                Ok(Filed { path, ..filed })
            }
            Holder::Game(_) | Holder::Stranger => self.file_game(saved, None),
        }
    }

    /// Keeps a game among the saved games: in its own file when it has one, else in a new file.
    pub fn keep(&self, saved: &SavedGame) -> Result<Filed, StoreError> {
        match &saved.file {
            Some(file) => self.refile_game(saved, file),
            None => self.file_game(saved, None),
        }
    }

    /// `:save [name]`: the game into its own file (one game, one file). Under a new name, it moves to a file of
    /// that name: the new file is written first, then the old one removed (when it still holds this game).
    pub fn save_as(&self, saved: &SavedGame, name: Option<&str>) -> Result<Filed, StoreError> {
        let name = name.map(safe_name).filter(|n| !n.is_empty());
        let current = saved.game.tags().get(NAME_TAG).map(str::to_string);
        let Some(name) = name.filter(|n| Some(n) != current.as_ref()) else {
            return self.keep(saved);
        };
        let own = saved.file.as_deref().and_then(|f| self.own_file(f));
        let filed = self.file_game(saved, Some(&name))?;
        if let Some(old) = own.filter(|old| *old != filed.path)
            && matches!(holder(&old), Holder::Game(id) if id == saved_id(saved))
        {
            // The game is safe in its new file; a failure here leaves a second copy, never a loss.
            let _ = fs::remove_file(&old);
        }
        Ok(filed)
    }

    /// `file` as one of the saved games' files, or `None` when it is not one (elsewhere, or a name the
    /// program would not have written).
    fn own_file(&self, file: &Path) -> Option<PathBuf> {
        let inside = file.parent() == Some(self.games_dir().as_path());
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(own_file_name)?;
        inside.then(|| self.games_dir().join(name))
    }
}

/// The game's identity, if it has one.
fn saved_id(saved: &SavedGame) -> Option<String> {
    saved.game.tags().get(GAME_ID_TAG).map(str::to_string)
}

/// `saved` with its identity (a new one when it has none) and, when given, the name it is saved under.
fn stamped(saved: &SavedGame, name: Option<&str>) -> (SavedGame, Filed) {
    let mut stamped = saved.clone();
    let id = saved_id(saved).unwrap_or_else(|| format!("{:016x}", unguessable()));
    let tags = stamped.game.tags_mut();
    tags.set(GAME_ID_TAG, &id);
    if let Some(name) = name {
        tags.set(NAME_TAG, name);
    }
    let filed = Filed {
        path: PathBuf::new(),
        id,
        name: tags.get(NAME_TAG).map(str::to_string),
    };
    (stamped, filed)
}

/// Who holds `path`.
fn holder(path: &Path) -> Holder {
    let text = match crate::bounded::read_bounded(path, super::library::MAX_GAMES_TEXT) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Holder::Nobody,
        Err(_) => return Holder::Stranger,
    };
    match from_pdn(&text) {
        Ok(saved) => Holder::Game(saved_id(&saved)),
        Err(_) => Holder::Stranger,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support;

    fn temp_home(name: &str) -> PathBuf {
        test_support::temp_home("filing", name)
    }

    fn saved(moves: &[&str]) -> SavedGame {
        test_support::played(moves)
    }

    /// `saved` as the app holds it once it was filed as `filed`.
    fn linked(mut saved: SavedGame, filed: &Filed) -> SavedGame {
        saved.game.tags_mut().set(GAME_ID_TAG, &filed.id);
        if let Some(name) = &filed.name {
            saved.game.tags_mut().set(NAME_TAG, name);
        }
        saved.file = Some(filed.path.clone());
        saved
    }

    fn files(store: &Store) -> Vec<String> {
        test_support::file_names(&store.games_dir())
    }

    #[test]
    fn a_game_is_filed_once_and_updated_in_place() {
        let home = temp_home("in-place");
        let store = Store::under(&home);
        let filed = store.keep(&saved(&["11-15"])).expect("filed");
        assert_eq!(filed.id.len(), 16, "{}", filed.id);
        let later = linked(saved(&["11-15", "23-19"]), &filed);
        let again = store.keep(&later).expect("filed again");
        assert_eq!(again, filed, "the same file, identity and name");
        assert_eq!(files(&store).len(), 1);
        let back = from_pdn(&fs::read_to_string(&filed.path).expect("there")).expect("reads");
        assert_eq!(back.game.len(), 2, "updated");
        assert_eq!(back.game.tags().get(GAME_ID_TAG), Some(filed.id.as_str()));
        // Gone (removed by hand): written again under its name.
        fs::remove_file(&filed.path).expect("removed");
        assert_eq!(store.keep(&later).expect("filed").path, filed.path);
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn another_game_s_file_is_never_written_over() {
        let home = temp_home("another");
        let store = Store::under(&home);
        let first = store.keep(&saved(&["11-15"])).expect("filed");
        let mine = linked(saved(&["11-15", "23-19"]), &first);
        // Another of the program's games, and a file that is not one of its saves, in its place in turn.
        let other = store.keep(&saved(&["9-14"])).expect("filed");
        for stranger in [
            fs::read_to_string(&other.path).expect("there"),
            "not a game at all".to_string(),
        ] {
            fs::write(&first.path, &stranger).expect("replaced");
            let filed = store.keep(&mine).expect("filed");
            assert_ne!(filed.path, first.path);
            assert_eq!(filed.id, first.id, "the game keeps its identity");
            assert_eq!(fs::read_to_string(&first.path).expect("there"), stranger);
            fs::remove_file(&filed.path).expect("tidied");
        }
        // A game saved before games had an identity goes on in its own file, and gains one.
        let mut old = saved(&["10-14"]);
        let path = store.games_dir().join("old.pdn");
        fs::write(&path, super::super::to_pdn(&old)).expect("written");
        old.file = Some(path.clone());
        let filed = store.keep(&old).expect("filed");
        assert_eq!(filed.path, path);
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn a_name_moves_the_game_to_a_file_of_that_name() {
        let home = temp_home("named");
        let store = Store::under(&home);
        let filed = store.keep(&saved(&["11-15"])).expect("filed");
        let game = linked(saved(&["11-15"]), &filed);
        let named = store.save_as(&game, Some("first game")).expect("saved");
        assert_eq!(named.name.as_deref(), Some("first-game"));
        assert_eq!(files(&store), ["first-game.pdn"], "moved, not copied");
        let game = linked(game, &named);
        assert_eq!(
            store.save_as(&game, Some("first game")).expect("saved"),
            named
        );
        assert_eq!(store.save_as(&game, None).expect("saved"), named);
        // A name another game has: a file of its own beside it, the other untouched.
        let other = store
            .save_as(&saved(&["9-14"]), Some("club"))
            .expect("saved");
        let text = fs::read_to_string(&other.path).expect("there");
        let moved = store.save_as(&game, Some("club")).expect("saved");
        assert_eq!(
            moved.path.file_name().and_then(|n| n.to_str()),
            Some("club-2.pdn")
        );
        assert_eq!(fs::read_to_string(&other.path).expect("there"), text);
        assert_eq!(files(&store), ["club-2.pdn", "club.pdn"]);
        let _ = fs::remove_dir_all(&home);
    }
}
