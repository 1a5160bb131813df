//! Reading games to choose from: the saved games, and any PDN file.

use std::borrow::Cow;
use std::fs;
use std::io::{self, BufReader};
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use super::{CLOCKS_TAG, OLD_CLOCKS_TAG, Store, StoreError, TIME_CONTROL_TAG, from_pdn, io_error};
use crowned_engine::Players;
use crowned_game::pdn::{GameSource, ListedGame, PdnPiece, PdnPieces, open_game};
use crowned_game::{AnyGame, TimeControl};
use crowned_rules::GameType;

/// Every game of a PDN file, each read as far as it can be. The file need not be UTF-8 (old archives are
/// often Latin-1); bytes that are not are shown as replacement characters. The file is read a piece at a time,
/// and each game is kept as its text and what the list shows of it, not as the replayed game.
pub fn read_games_file(path: &Path) -> Result<Vec<GameEntry>, StoreError> {
    read_games_file_as(path, None)
}

/// Every game of a PDN file as [`read_games_file`] reads them, a game without a `GameType` tag read as
/// `default` when given (the user says the file is Italian) rather than guessed.
pub fn read_games_file_as(
    path: &Path,
    default: Option<GameType>,
) -> Result<Vec<GameEntry>, StoreError> {
    // A regular file only: a device would be read without end (a real archive may be large, and is read in
    // pieces).
    let file = crate::bounded::open_regular(path).map_err(io_error(path))?;
    games_in_pieces(
        PdnPieces::new(BufReader::new(file)),
        &file_label(path),
        default,
    )
    .map_err(io_error(path))
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
    // Reading from memory cannot fail.
    games_in_pieces(PdnPieces::new(text.as_bytes()), name, None).unwrap_or_default()
}

fn games_in_pieces(
    pieces: impl Iterator<Item = io::Result<PdnPiece<String>>>,
    name: &str,
    default: Option<GameType>,
) -> io::Result<Vec<GameEntry>> {
    let mut entries = Vec::new();
    for piece in pieces {
        let piece = piece?;
        let first = entries.len() + 1;
        let games = piece.games(first);
        let text: Arc<str> = Arc::from(piece.text);
        for parsed in games {
            let index = entries.len() + 1;
            let source = format!("{name}, game {index}");
            entries.push(match parsed {
                Ok(game_text) => {
                    let (game, error) = open_game(&game_text, default);
                    let held =
                        GameSource::new(text.clone(), piece.line, piece.column, first, index)
                            .with_default(default);
                    GameEntry {
                        game: ListedGame::from_source(&game, held),
                        players: None,
                        error,
                        source,
                        file: None,
                        clock: None,
                    }
                }
                Err(e) => {
                    let mut game = AnyGame::default();
                    if let Some(event) = &e.event {
                        game.tags_mut().set("Event", event);
                    }
                    let error = format!("line {}, column {}: {}", e.line, e.column, e.message);
                    GameEntry::unreadable(game, error, source)
                }
            });
        }
    }
    Ok(entries)
}

impl Store {
    /// The saved games, newest first. A saved game that cannot be read is listed with the reason, so that it
    /// can still be looked at as far as it goes.
    pub fn saved_games(&self) -> Result<Vec<GameEntry>, StoreError> {
        Ok(self
            .saved_files()?
            .iter()
            .map(|path| saved_entry(path))
            .collect())
    }

    /// Every saved game's file, oldest first, as one PDN text (games separated by blank lines), up to
    /// [`MAX_GAMES_TEXT`] bytes; also how many files were left out for going past it. The files are read as
    /// they are, not parsed (a save from before the time control was written in seconds gets it in seconds).
    pub fn saved_games_pdn(&self) -> Result<(String, usize), StoreError> {
        let mut text = String::new();
        let mut left_out = 0;
        for path in self.saved_files()?.iter().rev() {
            let size = fs::metadata(path).map_or(0, |m| m.len());
            if text.len() as u64 + size > MAX_GAMES_TEXT {
                left_out += 1;
                continue;
            }
            let Ok(bytes) = fs::read(path) else { continue };
            let read = String::from_utf8_lossy(&bytes);
            let game = in_current_form(&read);
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(game.trim_end());
            text.push('\n');
        }
        Ok((text, left_out))
    }

    /// The saved games' files, newest first; the name breaks ties, so the order does not depend on the
    /// directory's.
    fn saved_files(&self) -> Result<Vec<std::path::PathBuf>, StoreError> {
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
        files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
        Ok(files.into_iter().map(|(_, path)| path).collect())
    }
}

/// A saved game's text as saving it again would write its clocks: a save from before the time control was
/// written in seconds (its time left under [`OLD_CLOCKS_TAG`], the control in minutes) gets the control in
/// seconds and the time left under [`CLOCKS_TAG`], so that whoever reads it (crowned too) reads the same clocks.
/// Any other text comes back as it is.
pub(super) fn in_current_form(text: &str) -> Cow<'_, str> {
    let old_left = format!("[{OLD_CLOCKS_TAG} \"");
    let control = format!("[{TIME_CONTROL_TAG} \"");
    let (Some(_), Some(at)) = (text.find(&old_left), text.find(&control)) else {
        return Cow::Borrowed(text);
    };
    let start = at + control.len();
    let Some(length) = text[start..].find('"') else {
        return Cow::Borrowed(text);
    };
    let Ok(minutes) = text[start..start + length].parse::<TimeControl>() else {
        return Cow::Borrowed(text);
    };
    let rewritten = format!(
        "{}{}{}",
        &text[..start],
        minutes.pdn_text(),
        &text[start + length..]
    );
    Cow::Owned(rewritten.replacen(&old_left, &format!("[{CLOCKS_TAG} \""), 1))
}

/// The most saved-games text one request returns: far more than anyone's games, little for a server to hold.
pub const MAX_GAMES_TEXT: u64 = 64 << 20;

/// A saved game with its players, or, when it is not one of the program's own, whatever the file holds.
fn saved_entry(path: &Path) -> GameEntry {
    let source = file_label(path);
    let text = match crate::bounded::read_bounded(path, MAX_GAMES_TEXT) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            return GameEntry::unreadable(
                AnyGame::default(),
                format!("cannot read it: {e}"),
                source,
            );
        }
    };
    match from_pdn(&text) {
        Ok(saved) => GameEntry {
            game: ListedGame::whole(saved.game),
            players: Some(saved.players),
            error: None,
            source,
            file: Some(path.to_path_buf()),
            clock: saved.clock,
        },
        Err(_) => {
            // Not one of the program's own: whatever the first game of the file is, under the file's name.
            match games_in_text(&text, &source).into_iter().next() {
                Some(entry) => GameEntry { source, ..entry },
                None => {
                    GameEntry::unreadable(AnyGame::default(), "no game in the file".into(), source)
                }
            }
        }
    }
}

/// A game offered in a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The game, as far as it could be read.
    pub game: ListedGame,
    /// Who played it, when it is one of the program's own saved games (they can be continued as they were).
    pub players: Option<Players>,
    /// Why the game could not be read to its end, if it could not.
    pub error: Option<String>,
    /// Where it came from, for messages: `tinsley.pdn, game 3`.
    pub source: String,
    /// The file of one of the program's own saved games, which continuing the game updates.
    pub file: Option<std::path::PathBuf>,
    /// The clocks of one of the program's own saved games, as they stood when it was saved.
    pub clock: Option<crowned_game::ClockState>,
}

impl GameEntry {
    /// A game that could not be read: `game` holds what could be (its tags, say), `error` says why not.
    pub fn unreadable(game: AnyGame, error: String, source: String) -> GameEntry {
        GameEntry {
            game: ListedGame::whole(game),
            players: None,
            error: Some(error),
            source,
            file: None,
            clock: None,
        }
    }

    /// A tag of the game, or `?` when it is missing or empty (the PDN convention for unknown values).
    pub fn tag(&self, name: &str) -> &str {
        self.game
            .tags()
            .get(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .unwrap_or("?")
    }

    /// The result as recorded: `1-0`, `0-1`, `1/2-1/2`, or `*` for a game without one.
    pub fn result(&self) -> &str {
        match self.tag("Result") {
            "?" => "*",
            result => result,
        }
    }
}
