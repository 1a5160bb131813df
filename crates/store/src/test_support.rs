//! What the store's unit tests share: a folder of their own, a game between two people, a folder's file names.

use std::fs;
use std::path::{Path, PathBuf};

use super::SavedGame;
use crowned_engine::{Player, Players};
use crowned_game::AnyGame;

/// A folder of the test's own, named by `part` and `name` and this process, removed first if a run left it.
pub fn temp_home(part: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crowned-{part}-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// A game between two people after `moves` from the start, with no file and no clocks.
pub fn played(moves: &[&str]) -> SavedGame {
    let mut game = AnyGame::default();
    for mv in moves {
        game.play_text(mv).expect("legal");
    }
    SavedGame {
        game,
        players: Players {
            black: Player::Human,
            white: Player::Human,
        },
        file: None,
        clock: None,
    }
}

/// The names of the files in `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("listed")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
