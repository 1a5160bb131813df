//! `crowned` with no command: the full-screen game.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Result, anyhow, bail};
use crowned::app::{Action, App, Effect, GameList, ListPurpose, Players};
use crowned::config::{Settings, SettingsError};
use crowned::game::Game;
use crowned::rules::Position;
use crowned::store::{
    AutosaveSlot, GameEntry, Store, StoreError, file_label, read_games_file, rename_new,
};
use crowned::term::{self, Ending, Saving};
use crowned::ui::Theme;

/// What the program opens with.
enum Opening {
    /// A new game from the standard start (or the unfinished game, if the player resumes it).
    Standard,
    /// A new game from a position given on the command line.
    Position(Game),
    /// The games of a file, for replaying: one is opened at once, several are listed.
    File {
        /// The file's name.
        name: String,
        /// Its games.
        games: Vec<GameEntry>,
    },
}

impl Opening {
    fn app(self, players: Players) -> (App, Vec<Effect>) {
        match self {
            Opening::Standard => App::new(players),
            Opening::Position(game) => App::with_game(game, players),
            Opening::File { name, mut games } => {
                if games.len() == 1 {
                    (App::replaying(games.remove(0), players), Vec::new())
                } else {
                    let list = GameList::new(name, games, ListPurpose::Replay);
                    (App::choosing(list, players), Vec::new())
                }
            }
        }
    }
}

/// Opens the game on the terminal with these settings (or the games of `file`); returns when the player quits
/// or a signal ends it. `problem` is why the settings file was not used, told on the status line at start.
pub fn play(
    start: Position,
    settings: &Settings,
    problem: Option<&SettingsError>,
    store: Result<Store, StoreError>,
    file: Option<&Path>,
) -> Result<ExitCode> {
    // The file is read first, so that a file that cannot be read is reported on a normal screen.
    let opening = match file {
        Some(path) => {
            // The error names the file and says why; its source would only repeat the reason.
            let games = read_games_file(path).map_err(|e| match e {
                StoreError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                    // A mistyped command lands here too, so say what else the word could have been.
                    anyhow!(
                        "{}: no such file, and not a command (`crowned --help` lists the commands)",
                        path.display()
                    )
                }
                e => anyhow!("cannot open {e}"),
            })?;
            // A file in which nothing reads as a game (not PDN at all) is refused with the first reason.
            let unreadable = |g: &GameEntry| g.game.is_empty() && g.game.tags().is_empty();
            if games.iter().all(unreadable) {
                let why = games.iter().find_map(|g| g.error.as_deref());
                match why {
                    Some(why) => bail!("{}: not a PDN games file: {why}", path.display()),
                    None => bail!("{}: no PDN games in the file", path.display()),
                }
            }
            Opening::File {
                name: file_label(path),
                games,
            }
        }
        None if start != Position::start() => Opening::Position(Game::from_position(start)),
        None => Opening::Standard,
    };
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(
            "the game needs a terminal (stdin and stdout); `crowned show` prints the position instead, \
             `crowned --help` lists the commands"
        );
    }
    let players = settings.players;
    // Without a place for files the game still runs; it says so and saves nothing.
    let (mut app, effects, notices, slot) = match &store {
        Ok(store) if settings.autosave => open_with_autosave(store, opening, players),
        // Without autosave an earlier autosave is neither offered nor touched.
        Ok(_) => {
            let (app, effects) = opening.app(players);
            (app, effects, Vec::new(), None)
        }
        Err(e) => {
            let (app, effects) = opening.app(players);
            (
                app,
                effects,
                vec![format!("games are not saved: {e}")],
                None,
            )
        }
    };
    app.set_preferences(settings.preferences());
    let notices: Vec<String> = problem
        .map(|e| format!("{}; running on the default settings", e.brief()))
        .into_iter()
        .chain(notices)
        .collect();
    if !notices.is_empty() {
        // A notice only changes the status line: it has no effects to carry out.
        let _ = app.update(Action::Notice(notices.join(" · ")));
    }
    // The weaker levels choose at random among good moves: a new game each time.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let ending = term::run(
        app,
        effects,
        term::Settings {
            options: settings.options(Theme::no_color_from_env()),
            think_time: settings.think_time(),
            seed,
            autosave: settings.autosave,
        },
        store.as_ref().ok().map(|store| Saving { store, slot }),
    )?;
    Ok(match ending {
        Ending::Quit => ExitCode::SUCCESS,
        // The shell's convention for a process ended by a signal.
        Ending::Signal(signal) => ExitCode::from(128 + signal as u8),
        Ending::InputClosed => ExitCode::from(1),
    })
}

/// The app for `opening`, with this program's autosave slot, offering first to resume an unfinished game left
/// by a program that has ended. When the command line asked for something else (a position, a file), that game
/// is filed among the saved games instead, so that nothing replaces it. Games still open in other programs are
/// left to them; autosaves that cannot be read were moved aside (never overwritten). The notices say all of it.
/// The slot is `None` when none could be taken (the game is then saved only when asked).
fn open_with_autosave(
    store: &Store,
    opening: Opening,
    players: Players,
) -> (App, Vec<Effect>, Vec<String>, Option<AutosaveSlot>) {
    let claim = match store.claim_autosave() {
        Ok(claim) => claim,
        Err(e) => {
            let (app, effects) = opening.app(players);
            let notice = match e {
                StoreError::AllSlotsTaken(_) => e.to_string(),
                e => format!("this game is not saved automatically ({e}); :save still saves it"),
            };
            return (app, effects, vec![notice], None);
        }
    };
    let mut notices: Vec<String> = claim
        .set_aside
        .iter()
        .map(|(kept, why)| format!("{why}; the file was kept as {}", kept.display()))
        .collect();
    match claim.open_elsewhere {
        0 => {}
        1 => notices.push(
            "an unfinished game is open in another crowned (offered here once that one ends); \
             this game is saved apart"
                .into(),
        ),
        n => notices.push(format!(
            "{n} unfinished games are open in other crowned programs (offered here once they end); \
             this game is saved apart"
        )),
    }
    let slot = claim.slot;
    let Some(saved) = claim.unfinished else {
        let (app, effects) = opening.app(players);
        return (app, effects, notices, Some(slot));
    };
    if let Opening::Standard = opening {
        let mut app = App::offering_resume(players, saved.game, saved.players);
        // A game continued from the saved games goes back into its own file.
        app.link_saved_file(saved.file);
        return (app, Vec::new(), notices, Some(slot));
    }
    let slot = match store.file_game(&saved, None).and_then(|_| slot.clear()) {
        Ok(()) => {
            notices.push("the unfinished game was kept in saved games (o opens it)".into());
            Some(slot)
        }
        Err(e) => match rename_new(slot.file(), "autosave-unfiled", "pdn") {
            Ok(kept) => {
                notices.push(format!(
                    "the unfinished game could not be filed ({e}); it was kept as {}",
                    kept.display()
                ));
                Some(slot)
            }
            // The slot still holds the game: this program must not write it.
            Err(_) => {
                notices.push(format!(
                    "this game is not saved automatically, so that the unfinished game in {} is not lost: {e}",
                    slot.file().display()
                ));
                None
            }
        },
    };
    let (app, effects) = opening.app(players);
    (app, effects, notices, slot)
}
