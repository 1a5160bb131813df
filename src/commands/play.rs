//! `crowned` with no command: the full-screen game.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};
use crowned::app::{App, Players};
use crowned::game::Game;
use crowned::rules::Position;
use crowned::term::{self, Ending, Settings};
use crowned::ui::Options;

/// What the command line chose for the game.
pub struct PlaySettings {
    /// Who plays each side.
    pub players: Players,
    /// How the screen looks.
    pub options: Options,
    /// Engine thinking time per move.
    pub think_time: Duration,
}

/// Opens the game on the terminal; returns when the player quits or a signal ends it.
pub fn play(start: Position, settings: &PlaySettings) -> Result<ExitCode> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(
            "the game needs a terminal (stdin and stdout); `crowned show` prints the position instead, \
             `crowned --help` lists the commands"
        );
    }
    let game = if start == Position::start() {
        Game::new()
    } else {
        Game::from_position(start)
    };
    let (app, effects) = App::with_game(game, settings.players);
    // The weaker levels choose at random among good moves: a new game each time.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let ending = term::run(
        app,
        effects,
        Settings {
            options: settings.options,
            think_time: settings.think_time,
            seed,
        },
    )?;
    Ok(match ending {
        Ending::Quit => ExitCode::SUCCESS,
        // The shell's convention for a process ended by a signal.
        Ending::Signal(signal) => ExitCode::from(128 + signal as u8),
        Ending::InputClosed => ExitCode::from(1),
    })
}
