//! Reading games to choose from: the saved games, and any PDN file.

use std::fs;
use std::path::Path;
use std::time::SystemTime;

use super::{Store, StoreError, from_pdn, io_error};
use crate::app::GameEntry;
use crate::game::Game;
use crate::game::pdn::{GameText, Variant, parse_games, replay_english, variant_of};

/// Every game of a PDN file, each read as far as it can be. The file need not be UTF-8 (old archives are
/// often Latin-1); bytes that are not are shown as replacement characters.
pub fn read_games_file(path: &Path) -> Result<Vec<GameEntry>, StoreError> {
    let bytes = fs::read(path).map_err(io_error(path))?;
    Ok(games_in_text(
        &String::from_utf8_lossy(&bytes),
        &file_label(path),
    ))
}

/// A file's name as messages show it (the whole path when it has no name).
pub fn file_label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Every game of a PDN text; `name` says where it came from in messages.
pub fn games_in_text(text: &str, name: &str) -> Vec<GameEntry> {
    parse_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, parsed)| {
            let source = format!("{name}, game {}", i + 1);
            match parsed {
                Ok(game_text) => entry_of(&game_text, source),
                Err(e) => {
                    let mut game = Game::new();
                    if let Some(event) = &e.event {
                        game.tags_mut().set("Event", event);
                    }
                    let error = format!("line {}, column {}: {}", e.line, e.column, e.message);
                    GameEntry::unreadable(game, error, source)
                }
            }
        })
        .collect()
}

/// One game replayed with the English rules, or, for a game of another variant, its record without moves and
/// the reason.
fn entry_of(text: &GameText, source: String) -> GameEntry {
    let variant = variant_of(text);
    let replayed = replay_english(text);
    let error = match &variant {
        Ok(Variant::English) => replayed.error.as_ref().map(ToString::to_string),
        Ok(other) => Some(format!(
            "a game of {}; crowned plays English draughts",
            other.name()
        )),
        Err(e) => Some(e.to_string()),
    };
    let game = match variant {
        Ok(Variant::English) => replayed.game,
        // Moves of another variant replayed as English would be nonsense; the tags still say what it is.
        _ => {
            let mut game = Game::new();
            for (name, value) in replayed.game.tags().iter() {
                game.tags_mut().set(name, value);
            }
            game
        }
    };
    GameEntry {
        game,
        players: None,
        error,
        source,
        file: None,
    }
}

impl Store {
    /// The saved games, newest first. A saved game that cannot be read is listed with the reason, so that it
    /// can still be looked at as far as it goes.
    pub fn saved_games(&self) -> Result<Vec<GameEntry>, StoreError> {
        let dir = self.games_dir();
        let listing = match fs::read_dir(&dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_error(&dir)(e)),
        };
        let mut files: Vec<(SystemTime, std::path::PathBuf)> = listing
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "pdn") && path.is_file())
            .map(|path| {
                let modified = fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                (modified, path)
            })
            .collect();
        // Newest first; the name breaks ties so the order does not depend on the directory's.
        files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
        Ok(files.iter().map(|(_, path)| saved_entry(path)).collect())
    }
}

/// A saved game with its players, or, when it is not one of the program's own, whatever the file holds.
fn saved_entry(path: &Path) -> GameEntry {
    let source = file_label(path);
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            return GameEntry::unreadable(Game::new(), format!("cannot read it: {e}"), source);
        }
    };
    match from_pdn(&text) {
        Ok(saved) => GameEntry {
            game: saved.game,
            players: Some(saved.players),
            error: None,
            source,
            file: Some(path.to_path_buf()),
        },
        Err(_) => {
            // Not one of the program's own: whatever the first game of the file is, under the file's name.
            match games_in_text(&text, &source).into_iter().next() {
                Some(entry) => GameEntry { source, ..entry },
                None => GameEntry::unreadable(Game::new(), "no game in the file".into(), source),
            }
        }
    }
}
