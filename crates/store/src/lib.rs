//! Where files live and how they are written: the settings file in the config directory, the autosave and the
//! saved games in the data directory (from the `directories` crate, or all under `$CROWNED_HOME` when that is
//! set). Every write goes to a temporary file of its own in the same directory, is flushed to disk, and is moved
//! into place ([`write_atomic`]), so a file is never half-written, whatever happens to the process; each running program
//! keeps its game in progress in an autosave slot of its own ([`AutosaveSlot`], [`Store::claim_autosave`]).

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use thiserror::Error;

use crowned_engine::{Player, Players};
use crowned_game::pdn::{clipped, open_game, parse_games, quoted};
use crowned_game::{AnyGame, ClockState, TimeControl};
use crowned_rules::Variant;

mod autosave;
pub mod bounded;
mod files;
mod filing;
mod library;
mod locks;
#[cfg(test)]
pub(crate) mod test_support;
mod variant_files;

pub use autosave::{AutosaveSlot, Claim, MAX_SLOTS};
pub use files::{create_new, create_temporary, rename_new, write_atomic, write_new};
pub use filing::{Filed, GAME_ID_TAG, NAME_TAG};
pub use library::{
    GameEntry, MAX_GAMES_TEXT, file_label, games_in_text, read_games_file, read_games_file_as,
};
pub use locks::ServerLock;
pub use variant_files::{
    LoadError, LoadProblem, MAX_FOLDER_FILES, VariantNameError, find_in_folder, line_of, load_file,
    load_folder, variant_by_name,
};

/// The environment variable that moves every file of the program under one directory.
pub const HOME_VARIABLE: &str = "CROWNED_HOME";

/// Tags the program adds to the games it saves so that they can be resumed exactly.
const BLACK_PLAYER_TAG: &str = "CrownedBlack";
const WHITE_PLAYER_TAG: &str = "CrownedWhite";
const PLY_TAG: &str = "CrownedPly";
/// The saved-games file an unfinished game in the autosave came from (its name in the games directory).
const FILE_TAG: &str = "CrownedFile";
/// Each side's time left on the clocks when the game was saved; the control is in `TimeControl`, in seconds as
/// PDN writes it (`300+3`).
const CLOCKS_TAG: &str = "CrownedTimeLeft";
/// What earlier saves called [`CLOCKS_TAG`]: with it, `TimeControl` is in the form players type (`5+3`, minutes
/// and seconds), which those saves wrote; it is still read, never written.
const OLD_CLOCKS_TAG: &str = "CrownedClocks";
/// The tags of the program's own, read from its saves and taken out of the game.
const OWN_TAGS: [&str; 6] = [
    BLACK_PLAYER_TAG,
    WHITE_PLAYER_TAG,
    PLY_TAG,
    FILE_TAG,
    CLOCKS_TAG,
    OLD_CLOCKS_TAG,
];
/// The time control of a game with clocks, in seconds as PDN and PGN write it (`300+3`, `1/30`); the server's
/// records write it the same way.
const TIME_CONTROL_TAG: &str = "TimeControl";

/// What can go wrong with the program's files.
#[derive(Debug, Error)]
pub enum StoreError {
    /// No home directory to put files in.
    #[error("no home directory was found; set {HOME_VARIABLE} to a directory for crowned's files")]
    NoHome,
    /// A guest of a server, whose games are not kept.
    #[error("a guest's games are not kept (connect with an SSH key to keep yours)")]
    Guest,
    /// Reading or writing a file failed.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        cause: io::Error,
    },
    /// A saved game could not be read back.
    #[error("{}: {reason}", .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Every autosave slot is held by a running program.
    #[error(
        "{0} other crowned programs are open on these files: this game is not saved automatically \
         (:save saves it; quitting one of the others frees a place)"
    )]
    AllSlotsTaken(usize),
    /// Another server runs on the same folder.
    #[error(
        "another crowned serve is running on {} (its records, players and games): stop it first, or give this \
         one a folder of its own with CROWNED_HOME",
        .0.display()
    )]
    ServerRunning(PathBuf),
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        cause: source,
    }
}

/// The program's directories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    config_dir: PathBuf,
    data_dir: PathBuf,
}

/// A game with who plays it: what the autosave and the saved games hold.
#[derive(Clone, Debug)]
pub struct SavedGame {
    /// The game, its current point included.
    pub game: AnyGame,
    /// Who plays each side.
    pub players: Players,
    /// The saved-games file the game came from, updated when it is saved again.
    pub file: Option<PathBuf>,
    /// The clocks as they stood, when the game has them.
    pub clock: Option<ClockState>,
}

impl Store {
    /// The directories for this user: under `$CROWNED_HOME` if it is set and not empty, else the platform's
    /// config and data directories.
    pub fn locate() -> Result<Store, StoreError> {
        if let Some(home) = std::env::var_os(HOME_VARIABLE).filter(|h| !h.is_empty()) {
            return Ok(Store::under(Path::new(&home)));
        }
        let dirs = directories::ProjectDirs::from("", "", "crowned").ok_or(StoreError::NoHome)?;
        Ok(Store {
            config_dir: dirs.config_dir().to_path_buf(),
            data_dir: dirs.data_dir().to_path_buf(),
        })
    }

    /// Every file under one directory: `config/` and `data/` inside it.
    pub fn under(home: &Path) -> Store {
        Store {
            config_dir: home.join("config"),
            data_dir: home.join("data"),
        }
    }

    /// The settings file.
    pub fn settings_file(&self) -> PathBuf {
        self.config_dir.join("config.toml")
    }

    /// A server operator's problems for the trainer (PDN), beside the settings file.
    pub fn problems_file(&self) -> PathBuf {
        self.config_dir.join("problems.pdn")
    }

    /// Where variant definitions of the user's own are found (`*.toml`): beside the settings file.
    pub fn variants_dir(&self) -> PathBuf {
        self.config_dir.join("variants")
    }

    /// Where finished and saved games go.
    pub fn games_dir(&self) -> PathBuf {
        self.data_dir.join("games")
    }

    /// The English endgame databases built by `crowned egdb build`, found there by the engine.
    pub fn egdb_dir(&self) -> PathBuf {
        self.egdb_dir_of(Variant::English)
    }

    /// The endgame tables of `variant` (`egdb/<name>`): English draughts' databases, or another rule set's
    /// win/draw/loss tables (`crowned egdb build --variant`), found beside English's by the engine.
    pub fn egdb_dir_of(&self, variant: Variant) -> PathBuf {
        self.data_dir.join("egdb").join(variant.name())
    }

    /// What `crowned serve` keeps: its host key, and a folder per player.
    pub fn server_dir(&self) -> PathBuf {
        self.data_dir.join("server")
    }
}

/// `name` when it can be the name of one of the saved games' files: a `.pdn` name of safe characters, with no
/// directory in it.
fn own_file_name(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".pdn")?;
    (!stem.is_empty() && safe_name(stem) == stem).then_some(name)
}

/// The game as PDN, with the players and the current point in tags of the program's own.
pub fn to_pdn(saved: &SavedGame) -> String {
    let mut game = saved.game.clone();
    let tags = game.tags_mut();
    // The program's own tags go last, after whatever the record gains, so that saving a game read back from
    // its save writes the same text.
    for tag in OWN_TAGS {
        tags.remove(tag);
    }
    for (name_tag, player) in [
        ("Black", saved.players.black),
        ("White", saved.players.white),
    ] {
        if tags.get(name_tag).is_none() {
            tags.set(name_tag, &player_name(player));
        }
    }
    if tags.get("Event").is_none() {
        tags.set("Event", "crowned game");
    }
    if tags.get("Date").is_none() {
        tags.set("Date", &pdn_date(SystemTime::now()));
    }
    if tags.get("Time").is_none() {
        tags.set("Time", &pdn_time(SystemTime::now()));
    }
    // After the tags written once, so that the text is the same each time the game is saved.
    if let Some(clock) = &saved.clock {
        tags.set(TIME_CONTROL_TAG, &clock.control.pdn_text());
        tags.set(CLOCKS_TAG, &clock.left_text());
    }
    tags.set(BLACK_PLAYER_TAG, saved.players.black.word());
    tags.set(WHITE_PLAYER_TAG, saved.players.white.word());
    tags.set(PLY_TAG, &saved.game.ply().to_string());
    if let Some(name) = saved.file.as_deref().and_then(|f| f.file_name()) {
        tags.set(FILE_TAG, &name.to_string_lossy());
    }
    game.to_pdn()
}

/// Reads back what [`to_pdn`] wrote (or any single game of a variant the program plays, played by two humans).
pub fn from_pdn(text: &str) -> Result<SavedGame, String> {
    let games = parse_games(text);
    let first = games.into_iter().next().ok_or("no game in the file")?;
    let parsed = first.map_err(|e| e.to_string())?;
    let (mut game, error) = open_game(&parsed, None);
    if let Some(error) = error {
        return Err(error);
    }
    let player = |tag: &str| -> Result<Player, String> {
        match game.tags().get(tag) {
            Some(word) => word.parse().map_err(|e: crowned_engine::UnknownLevel| {
                // The word is cut short: a huge tag value must not make a huge message.
                let short = crowned_engine::UnknownLevel(clipped(&e.0).to_string());
                format!("tag {tag}: {short}")
            }),
            None => Ok(Player::Human),
        }
    };
    let players = Players {
        black: player(BLACK_PLAYER_TAG)?,
        white: player(WHITE_PLAYER_TAG)?,
    };
    let ply = match game.tags().get(PLY_TAG) {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= game.len())
            .ok_or_else(|| format!("tag {PLY_TAG}: {} is not a move of this game", quoted(n)))?,
        None => game.len(),
    };
    game.go_to(ply);
    let file = game.tags().get(FILE_TAG).map(PathBuf::from);
    let clock = read_clocks(&game)?;
    for tag in OWN_TAGS {
        game.tags_mut().remove(tag);
    }
    Ok(SavedGame {
        game,
        players,
        file,
        clock,
    })
}

/// The clocks saved with a game, if it has them: the time control and each side's time left. Earlier saves
/// wrote the control in minutes (`5+3`) beside [`OLD_CLOCKS_TAG`]; the tag tells which form to read.
fn read_clocks(game: &AnyGame) -> Result<Option<ClockState>, String> {
    let tags = game.tags();
    let (left_tag, left, read): (_, _, fn(&str) -> Result<TimeControl, _>) =
        match (tags.get(CLOCKS_TAG), tags.get(OLD_CLOCKS_TAG)) {
            (Some(left), _) => (CLOCKS_TAG, left, TimeControl::from_pdn_text),
            (None, Some(left)) => (OLD_CLOCKS_TAG, left, str::parse),
            // A record's time control without times left (a finished game from a server) is not a clock to go
            // on with.
            (None, None) => return Ok(None),
        };
    let Some(control) = tags.get(TIME_CONTROL_TAG) else {
        return Ok(None);
    };
    let control = read(control).map_err(|e| format!("tag {TIME_CONTROL_TAG}: {e}"))?;
    ClockState::read(control, left)
        .map(Some)
        .map_err(|e| format!("tag {left_tag}: {e}"))
}

fn player_name(player: Player) -> String {
    match player {
        Player::Human => "Player".to_string(),
        Player::Engine(level) => format!("crowned ({level})"),
        Player::Remote => "Opponent".to_string(),
    }
}

/// Keeps letters, digits, `-` and `_` of a name typed by the player, so that it cannot leave the directory.
fn safe_name(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect::<String>()
        .trim_matches('-')
        .to_string()
}

fn default_name(saved: &SavedGame, now: SystemTime) -> String {
    let (y, m, d, hh, mm) = civil(now);
    format!(
        "{y:04}-{m:02}-{d:02}-{hh:02}{mm:02}-{}-vs-{}",
        saved.players.black.word(),
        saved.players.white.word()
    )
}

/// The date of `now` in UTC as PDN's `Date` tag writes it: `2026.11.25`.
pub fn pdn_date(now: SystemTime) -> String {
    let (y, m, d, _, _) = civil(now);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The time of day in UTC as PDN's `Time` tag writes it: `14:05:09`.
fn pdn_time(now: SystemTime) -> String {
    let (_, _, _, hh, mm) = civil(now);
    let ss = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() % 60);
    format!("{hh:02}:{mm:02}:{ss:02}")
}

/// A time to the minute in UTC, as logs and lists print it: `2026-11-30 00:53 UTC`.
pub fn utc_minute(time: SystemTime) -> String {
    let (y, m, d, hh, mm) = civil(time);
    format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02} UTC")
}

/// UTC year, month, day, hour and minute of a time (the proleptic Gregorian calendar, from days since 1970).
fn civil(time: SystemTime) -> (i64, u32, u32, u32, u32) {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days to a civil date: eras of 400 years, years starting on 1 March so that leap days come last.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rest / 3600) as u32,
        (rest % 3600 / 60) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_engine::Level;
    use std::fs;
    use std::time::Duration;

    fn temp_home(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("crowned-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn sample() -> SavedGame {
        let mut game = crowned_game::AnyGame::default();
        for mv in ["11-15", "23-19", "8-11", "22-17"] {
            game.play_text(mv).expect("legal");
        }
        game.undo();
        SavedGame {
            game,
            players: Players {
                black: Player::Human,
                white: Player::Engine(Level::Hard),
            },
            file: None,
            clock: None,
        }
    }

    fn clocked() -> SavedGame {
        SavedGame {
            clock: Some(ClockState {
                control: "5+3".parse().expect("valid"),
                left: [Duration::from_millis(245_300), Duration::from_secs(301)],
            }),
            ..sample()
        }
    }

    #[test]
    fn a_saved_game_comes_back_exactly() {
        let saved = sample();
        let back = from_pdn(&to_pdn(&saved)).expect("reads back");
        assert_eq!(back.players, saved.players);
        assert_eq!(
            back.game.moves(),
            saved.game.moves(),
            "the redo line is kept"
        );
        assert_eq!(back.game.ply(), 3, "and so is the current point");
        assert!(back.game.tags().get(PLY_TAG).is_none());
        assert_eq!(back.game.tags().get("White"), Some("crowned (hard)"));
        assert_eq!(back.clock, None);
        // The clocks come back to the millisecond, and the control stays in the record for anyone to read.
        let text = to_pdn(&clocked());
        assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
        let back = from_pdn(&text).expect("reads back");
        assert_eq!(back.clock, clocked().clock);
        assert!(back.game.tags().get(CLOCKS_TAG).is_none());
        assert_eq!(to_pdn(&back), text, "written again the same");
    }

    #[test]
    fn an_earlier_save_with_the_control_in_minutes_still_resumes() {
        let text = to_pdn(&clocked())
            .replace("[TimeControl \"300+3\"]", "[TimeControl \"5+3\"]")
            .replace(CLOCKS_TAG, OLD_CLOCKS_TAG);
        assert!(
            text.contains("[CrownedClocks \"245.300 301.000\"]"),
            "{text}"
        );
        let back = from_pdn(&text).expect("an earlier save reads");
        assert_eq!(
            back.clock,
            clocked().clock,
            "five minutes, not five seconds"
        );
        assert!(back.game.tags().get(OLD_CLOCKS_TAG).is_none());
        let again = to_pdn(&back);
        assert!(again.contains("[TimeControl \"300+3\"]"), "{again}");
        assert!(!again.contains(OLD_CLOCKS_TAG), "{again}");
        // Handed on as it is (the PDN of the saved games sent to a player), it is put in the same form.
        assert_eq!(library::in_current_form(&text), again);
        assert_eq!(
            library::in_current_form(&again),
            again,
            "a save of now is left alone"
        );
    }

    #[test]
    fn broken_saves_are_reported_not_trusted() {
        let text = to_pdn(&sample());
        for (bad, expected) in [
            (
                text.replace("[CrownedPly \"3\"]", "[CrownedPly \"9\"]"),
                "CrownedPly",
            ),
            (text.replace("\"hard\"", "\"genius\""), "unknown level"),
            (text.replace("22-17", "22-16"), "22-16"),
            (String::new(), "no game"),
        ] {
            let error = from_pdn(&bad).expect_err("refused");
            assert!(error.contains(expected), "{error}");
        }
        let text = to_pdn(&clocked());
        for (bad, expected) in [
            (text.replace("\"300+3\"", "\"300+\""), "TimeControl"),
            (text.replace("\"300+3\"", "\"40/9000\""), "TimeControl"),
            (text.replace("245.300", "-1"), CLOCKS_TAG),
            (text.replace("245.300 301.000", "1e99 0"), CLOCKS_TAG),
            (
                text.replace("245.300 301.000", &"9".repeat(100_000)),
                CLOCKS_TAG,
            ),
        ] {
            let error = from_pdn(&bad).expect_err("refused");
            assert!(error.contains(expected), "{error}");
        }
    }

    #[test]
    fn autosave_round_trip_and_filing_never_overwrites() {
        let home = temp_home("round-trip");
        let store = Store::under(&home);
        let slot = store.claim_autosave().expect("claimed").slot;
        assert!(slot.load().expect("readable").is_none());
        slot.save(&sample()).expect("saved");
        let back = slot.load().expect("readable").expect("present");
        assert_eq!(back.game.ply(), 3);
        let first = store.file_game(&back, Some("my game")).expect("filed").path;
        let second = store.file_game(&back, Some("my game")).expect("filed").path;
        assert_eq!(
            first.file_name().and_then(|n| n.to_str()),
            Some("my-game.pdn")
        );
        assert_eq!(
            second.file_name().and_then(|n| n.to_str()),
            Some("my-game-2.pdn")
        );
        let escape = store
            .file_game(&back, Some("../../etc/x"))
            .expect("filed")
            .path;
        assert!(
            escape.starts_with(store.games_dir()),
            "{}",
            escape.display()
        );
        slot.clear().expect("cleared");
        slot.clear().expect("clearing twice is fine");
        assert!(slot.load().expect("readable").is_none());
        // No temporary files are left behind.
        let leftovers: Vec<_> = fs::read_dir(store.games_dir())
            .expect("games dir")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn a_game_goes_back_into_its_own_file_and_nowhere_else() {
        let home = temp_home("refile");
        let store = Store::under(&home);
        let mut saved = sample();
        let filed = store.file_game(&saved, Some("club")).expect("filed");
        let first = filed.path.clone();
        // The app keeps the identity it was filed under.
        saved.game.tags_mut().set(GAME_ID_TAG, &filed.id);
        saved.game.redo();
        let again = store.refile_game(&saved, &first).expect("filed again").path;
        assert_eq!(again, first, "the same file");
        let count = fs::read_dir(store.games_dir()).expect("games dir").count();
        assert_eq!(count, 1, "no second copy");
        // The autosave remembers the file across a restart.
        saved.file = Some(first.clone());
        let slot = store.claim_autosave().expect("claimed").slot;
        slot.save(&saved).expect("autosaved");
        let back = slot.load().expect("readable").expect("present");
        assert_eq!(back.file.as_deref(), Some(first.as_path()));
        assert!(
            back.game.tags().get(FILE_TAG).is_none(),
            "the tag is the program's own"
        );
        // A path outside the saved games is never written: the game is filed anew.
        let outside = home.join("elsewhere.pdn");
        let filed = store.refile_game(&saved, &outside).expect("filed").path;
        assert!(filed.starts_with(store.games_dir()));
        assert!(!outside.exists());
        // Nor does a tag naming a file elsewhere survive reading.
        let text = to_pdn(&saved).replace("club.pdn", "../escape.pdn");
        write_atomic(slot.file(), text.as_bytes()).expect("written");
        let back = slot.load().expect("readable").expect("present");
        assert_eq!(back.file, None);
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn a_corrupt_autosave_is_an_error_naming_the_file() {
        let home = temp_home("corrupt");
        let store = Store::under(&home);
        let slot = store.claim_autosave().expect("claimed").slot;
        write_atomic(slot.file(), b"[Event \"x\"]\n1. 11-15 23-19 2. 99-1 *").expect("written");
        let error = slot.load().expect_err("corrupt");
        assert!(error.to_string().contains("autosave.pdn"), "{error}");
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn dates_are_computed_in_utc() {
        let at = |secs| civil(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), (1970, 1, 1, 0, 0));
        // 2000-02-29 12:34 UTC and 2026-11-21 23:59 UTC.
        assert_eq!(at(951_827_640), (2000, 2, 29, 12, 34));
        assert_eq!(at(1_795_305_540), (2026, 11, 21, 23, 59));
    }
}
