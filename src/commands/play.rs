//! `crowned` with no command: the full-screen game.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};
use crowned::app::{Action, App, Effect, Players};
use crowned::config::{Settings, SettingsError};
use crowned::game::Game;
use crowned::rules::Position;
use crowned::store::{Store, StoreError};
use crowned::term::{self, Ending};
use crowned::ui::Theme;

/// Opens the game on the terminal with these settings; returns when the player quits or a signal ends it.
/// `problem` is why the settings file was not used, told on the status line at start.
pub fn play(
    start: Position,
    settings: &Settings,
    problem: Option<&SettingsError>,
    store: Result<Store, StoreError>,
) -> Result<ExitCode> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(
            "the game needs a terminal (stdin and stdout); `crowned show` prints the position instead, \
             `crowned --help` lists the commands"
        );
    }
    let set_up = start != Position::start();
    let game = if set_up {
        Game::from_position(start)
    } else {
        Game::new()
    };
    let players = settings.players;
    // Without a place for files the game still runs; it says so and saves nothing.
    let (mut app, effects, notice) = match &store {
        Ok(store) if settings.autosave => open_with_autosave(store, game, players, set_up),
        // Without autosave an earlier autosave is neither offered nor touched.
        Ok(_) => {
            let (app, effects) = App::with_game(game, players);
            (app, effects, None)
        }
        Err(e) => {
            let (app, effects) = App::with_game(game, players);
            (app, effects, Some(format!("games are not saved: {e}")))
        }
    };
    app.set_preferences(settings.preferences());
    let notices: Vec<String> = problem
        .map(|e| format!("{}; running on the default settings", e.brief()))
        .into_iter()
        .chain(notice)
        .collect();
    if !notices.is_empty() {
        app.update(Action::Notice(notices.join(" · ")));
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
        store.as_ref().ok(),
    )?;
    Ok(match ending {
        Ending::Quit => ExitCode::SUCCESS,
        // The shell's convention for a process ended by a signal.
        Ending::Signal(signal) => ExitCode::from(128 + signal as u8),
        Ending::InputClosed => ExitCode::from(1),
    })
}

/// The app for a new game, offering first to resume an unfinished game left in the autosave. An autosave that
/// cannot be read is moved aside (never overwritten) and the player told where it went.
fn open_with_autosave(
    store: &Store,
    game: Game,
    players: Players,
    set_up: bool,
) -> (App, Vec<Effect>, Option<String>) {
    match store.load_autosave() {
        Ok(Some(saved)) if saved.game.outcome().is_none() && !saved.game.is_empty() => {
            if !set_up {
                let app = App::offering_resume(players, saved.game, saved.players);
                return (app, Vec::new(), None);
            }
            // A position was asked for on the command line: play it, and keep the unfinished game.
            let notice = match store
                .file_game(&saved, None)
                .and_then(|_| store.clear_autosave())
            {
                Ok(()) => "the unfinished game was kept in saved games".to_string(),
                Err(e) => format!("games are not saved: {e}"),
            };
            let (app, effects) = App::with_game(game, players);
            (app, effects, Some(notice))
        }
        Ok(_) => {
            let (app, effects) = App::with_game(game, players);
            (app, effects, None)
        }
        Err(error) => {
            let (app, effects) = App::with_game(game, players);
            let notice = match (&error, set_aside(store)) {
                (StoreError::Corrupt { .. }, Ok(kept)) => {
                    format!("{error}; the file was kept as {}", kept.display())
                }
                _ => format!("{error}; games are not saved"),
            };
            (app, effects, Some(notice))
        }
    }
}

/// Renames an unreadable autosave so that the next save does not replace it.
fn set_aside(store: &Store) -> std::io::Result<std::path::PathBuf> {
    let from = store.autosave_file();
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let to = from.with_file_name(format!("autosave-unreadable-{stamp}.pdn"));
    std::fs::rename(&from, &to)?;
    Ok(to)
}
