//! `crowned` with no command: the full-screen game.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use crowned::config::{Overrides, Settings, SettingsError};
use crowned::game::AnyGame;
use crowned::rules::{AnyPosition, GameType};
use crowned::session::{self, SessionEnd, SessionOpening};
use crowned::store::load_folder;
use crowned::store::{GameEntry, Store, StoreError, file_label, read_games_file_as};
use crowned::term;
use crowned::ui::Theme;

use super::{BoardOptions, settings};

/// `crowned` with no command: the game with the command line's options over the settings, under the rules the
/// command line names, else the settings'.
pub fn run(overrides: &Overrides, board: &BoardOptions, file: Option<&Path>) -> Result<ExitCode> {
    let (settings, store, problem) = settings::load(overrides);
    // A FEN is read under the rules chosen.
    let game_type = board.named().unwrap_or(settings.game_type);
    let start = board.position_as(game_type)?;
    play(
        start,
        game_type,
        board.named(),
        &settings,
        problem.as_ref(),
        store,
        file,
    )
}

/// Opens the game on the terminal with these settings (or the games of `file`); returns when the player quits
/// or a signal ends it. `start` is the position of a new game, under the rules of `game_type`; the games of a
/// file without a `GameType` tag are read as `file_rules` when the player named a variant, else guessed.
/// `problem` is why the settings file was not used, told on the status line at start.
fn play(
    start: AnyPosition,
    game_type: GameType,
    file_rules: Option<GameType>,
    settings: &Settings,
    problem: Option<&SettingsError>,
    store: Result<Store, StoreError>,
    file: Option<&Path>,
) -> Result<ExitCode> {
    // The file is read first, so that a file that cannot be read is reported on a normal screen.
    let opening = match file {
        Some(path) => {
            // The error names the file and says why; its source would only repeat the reason.
            let games = read_games_file_as(path, file_rules).map_err(|e| match e {
                StoreError::Io { cause, .. } if cause.kind() == std::io::ErrorKind::NotFound => {
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
            SessionOpening::File {
                name: file_label(path),
                games,
            }
        }
        None if start != AnyPosition::start(game_type) => {
            SessionOpening::Position(Box::new(AnyGame::from_position(start)))
        }
        None => SessionOpening::Standard(game_type),
    };
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(
            "the game needs a terminal (stdin and stdout); `crowned show` prints the position instead, \
             `crowned --help` lists the commands"
        );
    }
    // The built-ins played from their definitions (Turkish), then the player's own variants, for the new-game
    // dialog; a file that does not load is told, never fatal.
    for (name, _) in crowned::rules::defined::definition_only_builtins() {
        if let Some(Err(e)) = crowned::rules::defined::load_builtin(name) {
            tracing::warn!("the built-in definition {name} does not load: {e}");
        }
    }
    let found = store
        .as_ref()
        .map(|s| load_folder(&s.variants_dir()))
        .unwrap_or_default();
    let settings_file = store.as_ref().ok().map(Store::settings_file);
    let (mut opened, config) = session::open_with_settings(
        store,
        opening,
        settings,
        problem,
        Theme::no_color_from_env(),
    );
    opened
        .notices
        .extend(found.1.iter().map(|e| format!("variant not loaded: {e}")));
    if let Some(file) = settings_file {
        opened.settings_home = session::SettingsHome::File(file);
    }
    let ending = term::run(opened, config, super::databases())?;
    Ok(match ending {
        SessionEnd::Quit => ExitCode::SUCCESS,
        // The shell's convention for a process ended by a signal.
        SessionEnd::Signal(signal) => ExitCode::from(128 + signal as u8),
        SessionEnd::InputClosed => ExitCode::from(1),
        SessionEnd::EngineFailed => bail!("the engine stopped after an error"),
    })
}
