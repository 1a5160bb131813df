//! The input box's text: a typed move, or a `:command` from the table of [`TYPED_COMMANDS`].
//!
//! Every command is one row: its name, the other names it answers to, the argument it takes, its line of help and
//! what it does. The list of commands shown in messages and in the help overlay is made from the table, so adding a
//! command is adding a row.

use super::App;
use crate::app::action::{Action, Effect, HelpAction, ReplayAction, SetupAction};
use crate::app::mode::{Focus, Mode};
use crate::engine::{Level, Player};
use crate::rules::{Color, Strictness};

/// A command typed in the input box after a colon: one row of [`TYPED_COMMANDS`].
#[derive(Debug)]
pub struct TypedCommand {
    /// Its name: `undo` for `:undo`.
    pub name: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    /// What may follow the name, as the list of commands shows it (`L`, `[FEN]`: brackets when it may be left
    /// out), or `None` when nothing does.
    pub argument: Option<&'static str>,
    /// What it does, in a line.
    pub help: &'static str,
    /// Carries it out, given the rest of the line (trimmed, `None` when there is none): what it did or asks
    /// for, or why it was refused, for the status line (the text then stays in the box to be corrected).
    run: fn(&mut App, Option<&str>) -> Result<Ran, String>,
}

impl TypedCommand {
    /// Whether `name` (typed without the colon) calls this command.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }

    /// The command as the list shows it: `:level L`.
    pub fn usage(&self) -> String {
        match self.argument {
            Some(argument) => format!(":{} {argument}", self.name),
            None => format!(":{}", self.name),
        }
    }
}

const fn command(
    name: &'static str,
    argument: Option<&'static str>,
    help: &'static str,
    run: fn(&mut App, Option<&str>) -> Result<Ran, String>,
) -> TypedCommand {
    TypedCommand {
        name,
        aliases: &[],
        argument,
        help,
        run,
    }
}

/// What an accepted command comes to.
pub(super) enum Ran {
    /// It did its work: these effects follow.
    Done(Vec<Effect>),
    /// It means this action, carried out as if its key had been pressed.
    Then(Action),
}

/// Every command the input box understands, in the order the list of commands shows them.
pub static TYPED_COMMANDS: &[TypedCommand] = &[
    command("new", None, "a new game: choose the players", |_, _| {
        Ok(Ran::Then(Action::NewGame))
    }),
    command(
        "rematch",
        None,
        "a new game at once with the colours swapped",
        |_, _| Ok(Ran::Then(Action::Rematch)),
    ),
    command(
        "undo",
        None,
        "take back a move (a whole turn against the engine)",
        |app, _| Ok(Ran::Done(app.take_back())),
    ),
    command("redo", None, "replay a move taken back", |app, _| {
        Ok(Ran::Done(app.step_forward()))
    }),
    command("flip", None, "turn the board round", |_, _| {
        Ok(Ran::Then(Action::Flip))
    }),
    command("resign", None, "resign the game (asks first)", |app, _| {
        Ok(Ran::Done(app.ask_to_resign()))
    }),
    command("draw", None, "offer a draw", |app, _| {
        Ok(Ran::Done(app.offer_draw()))
    }),
    command("move", None, "make the engine move now", |app, _| {
        Ok(Ran::Done(app.move_now()))
    }),
    command(
        "hint",
        Some("[L]"),
        "the engine suggests a move (at the settings' hint level, or level L)",
        |app, rest| app.hint_command(rest).map(Ran::Done),
    ),
    TypedCommand {
        name: "analyse",
        aliases: &["analyze"],
        argument: None,
        help: "analyse every move of the game and mark the costly ones (?!, ?, ??)",
        run: |_, _| Ok(Ran::Then(Action::AnalyseGame)),
    },
    command(
        "comment",
        Some("[TEXT]"),
        "a comment on the move on show (saved in the PDN); :comment alone removes it",
        |app, rest| app.comment_command(rest).map(Ran::Done),
    ),
    command(
        "analysis",
        None,
        "show or hide the analysis panel (the engine's view of the position on show)",
        |_, _| Ok(Ran::Then(Action::ToggleAnalysis)),
    ),
    command(
        "pause",
        None,
        "hold the engine, or let it go on",
        |app, _| Ok(Ran::Done(app.toggle_pause())),
    ),
    command(
        "level",
        Some("L"),
        "the engine's level from its next move: random, easy, medium, hard or max",
        |app, rest| app.level_command(rest).map(Ran::Done),
    ),
    command(
        "ballot",
        Some("[N]"),
        "a new game of English draughts from 3-move ballot N (1-157), or one drawn at random",
        |app, rest| app.ballot_command(rest).map(Ran::Done),
    ),
    command(
        "eleven",
        Some("[N]"),
        "a new game of English draughts from 11-man ballot N (1-2500), or one drawn at random",
        |app, rest| app.eleven_command(rest).map(Ran::Done),
    ),
    command("setup", None, "set up a position", |_, _| {
        Ok(Ran::Then(Action::Setup(SetupAction::Open)))
    }),
    command(
        "fen",
        Some("[FEN]"),
        "show the position on show in FEN, or set one up",
        |app, rest| app.fen_command(rest).map(Ran::Done),
    ),
    command(
        "copy",
        Some("[fen|pdn]"),
        "put the game's PDN, or the position on show in FEN, on your terminal's clipboard",
        |app, rest| app.copy_command(rest).map(Ran::Done),
    ),
    command(
        "save",
        Some("[name]"),
        "save the game among the saved games, under a name if one is given",
        |app, name| Ok(Ran::Done(app.save(name))),
    ),
    command("load", None, "open a saved game", |_, _| {
        Ok(Ran::Then(Action::Load))
    }),
    command(
        "continue",
        None,
        "continue a replayed game from the move on show",
        |_, _| Ok(Ran::Then(Action::Replay(ReplayAction::Continue))),
    ),
    command(
        "say",
        Some("TEXT"),
        "a line of chat to the table (a game on a server)",
        |app, rest| app.say(rest).map(Ran::Done),
    ),
    command(
        "mute",
        None,
        "stop showing the table's chat, or show it again (a game on a server)",
        |app, _| app.mute().map(Ran::Done),
    ),
    command(
        "block",
        None,
        "block the opponent: no chat or offers from them, never seated with them again (a game on a server)",
        |app, _| app.block().map(Ran::Done),
    ),
    command(
        "report",
        Some("TEXT"),
        "report the opponent to the server's operator, saying why (a game on a server)",
        |app, rest| app.report(rest).map(Ran::Done),
    ),
    command(
        "claim",
        Some("[draw]"),
        "claim the win (or call it a draw) when the opponent has been away too long (a game on a server)",
        |app, rest| app.claim(rest).map(Ran::Done),
    ),
    TypedCommand {
        name: "explode",
        aliases: &["effect"],
        argument: None,
        help: "turn the capture effect (a burst over each taken piece) on or off",
        run: |_, _| Ok(Ran::Then(Action::ToggleCaptureEffect)),
    },
    command("problems", None, "the problem trainer", |_, _| {
        Ok(Ran::Then(Action::Problems))
    }),
    command("help", None, "the keys and the commands", |app, _| {
        app.overlay.show_help();
        Ok(Ran::Done(Vec::new()))
    }),
    command(
        "rules",
        None,
        "the rules of this game: goal, pieces, captures, draws",
        |app, _| {
            if app.overlay.help().and_then(|help| help.rules()).is_none() {
                let _ = app.update(Action::Help(HelpAction::RulesPage));
            }
            Ok(Ran::Done(Vec::new()))
        },
    ),
    command(
        "settings",
        None,
        "colours, pieces, notation, the board's bottom and the keys, kept for next time",
        |_, _| Ok(Ran::Then(Action::OpenSettings)),
    ),
    command("quit", None, "leave at once", |_, _| {
        Ok(Ran::Then(Action::Interrupt))
    }),
];

/// The commands as messages and the help list them: `:new :rematch … :level L … :quit`.
pub fn command_list() -> String {
    TYPED_COMMANDS
        .iter()
        .map(TypedCommand::usage)
        .collect::<Vec<_>>()
        .join(" ")
}

impl App {
    pub(super) fn submit_input(&mut self) -> Vec<Effect> {
        let text = self.input.value().trim().to_string();
        if let Some(command) = text.strip_prefix(':') {
            return self.run_command(command.trim());
        }
        if text.is_empty() {
            self.clear_input();
            return Vec::new();
        }
        if !matches!(self.mode, Mode::Play) || !self.humans_turn() {
            let refusal = match self.mode {
                Mode::Over(_) => self.mode_message(),
                Mode::Browsing { .. } => self.browsing_refusal(),
                Mode::Play => self.engine_refusal(),
                Mode::Setup(_) => {
                    "setting up: moves are played once the game starts (Enter)".into()
                }
            };
            self.refuse_input(refusal);
            return Vec::new();
        }
        let found = self
            .play
            .game()
            .position()
            .parse_move(&text, Strictness::Exact);
        match found {
            Ok(mv) => {
                self.clear_input();
                self.play(mv)
            }
            Err(e) => {
                self.refuse_input(e.to_string());
                Vec::new()
            }
        }
    }

    /// Empties the input box (refused text held there included) and gives the keys back to the board.
    pub(super) fn clear_input(&mut self) {
        self.input.clear();
        if self.focus == Focus::Input {
            self.focus = Focus::Board;
        }
    }

    /// Runs `command` (a `:command` without its colon, trimmed): its name, then the rest of the line for it. Done,
    /// it empties the input box; refused, it leaves the text there for correction and says why.
    pub(super) fn run_command(&mut self, command: &str) -> Vec<Effect> {
        let (name, rest) = match command.split_once(char::is_whitespace) {
            Some((name, rest)) => (name, Some(rest.trim())),
            None => (command, None),
        };
        let outcome = match TYPED_COMMANDS.iter().find(|c| c.answers_to(name)) {
            Some(found) => match self.table_command(name, rest) {
                Some(at_table) => at_table.map(Ran::Done),
                None => (found.run)(self, rest),
            },
            None => Err(format!(
                "unknown command :{name} (commands: {})",
                command_list()
            )),
        };
        match outcome {
            Ok(Ran::Done(effects)) => {
                self.clear_input();
                effects
            }
            Ok(Ran::Then(action)) => {
                self.clear_input();
                self.dispatch(action)
            }
            Err(refusal) => {
                self.refuse_input(refusal);
                Vec::new()
            }
        }
    }

    /// `:save [name]`: the name is the rest of the line, spaces and all (the store makes it a safe file name).
    fn save(&self, name: Option<&str>) -> Vec<Effect> {
        vec![Effect::Save {
            game: Box::new(self.play.game().clone()),
            players: self.players,
            file: self.saved_file.clone(),
            clock: self.clock_state(),
            name: name.map(str::to_string),
        }]
    }

    /// `:level L`: the first word after the name is the level.
    fn level_command(&mut self, rest: Option<&str>) -> Result<Vec<Effect>, String> {
        match rest.and_then(|r| r.split_whitespace().next()) {
            Some(word) => {
                let level = word.parse::<Level>().map_err(|e| e.to_string())?;
                self.set_engine_level(level);
                Ok(Vec::new())
            }
            None => Err("which level? random, easy, medium, hard or max".into()),
        }
    }

    /// Every engine player plays at `level` from its next move.
    pub(super) fn set_engine_level(&mut self, level: Level) {
        for side in [Color::Black, Color::White] {
            if let Player::Engine(_) = self.players.of(side) {
                self.set_player(side, Player::Engine(level));
            }
        }
        self.status = format!("engine level: {level}");
    }

    pub(super) fn set_player(&mut self, side: Color, player: Player) {
        match side {
            Color::Black => self.players.black = player,
            Color::White => self.players.white = player,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Players;

    /// The list as it stood before it was made from the table: the help overlay's snapshot shows it.
    const LISTED: &str = ":new :rematch :undo :redo :flip :resign :draw :move :hint [L] :analyse \
                          :comment [TEXT] :analysis :pause :level L :ballot [N] :eleven [N] :setup :fen [FEN] \
                          :copy [fen|pdn] :save [name] :load :continue :say TEXT :mute :block :report TEXT :claim [draw] \
                          :explode :problems :help :rules :settings :quit";

    fn app() -> App {
        App::new(Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        })
        .0
    }

    #[test]
    fn the_list_of_commands_is_made_from_the_table() {
        assert_eq!(command_list(), LISTED);
        let mut app = app();
        let _ = app.update(Action::Submit(":frobnicate".into()));
        assert_eq!(
            app.status(),
            format!("unknown command :frobnicate (commands: {LISTED})")
        );
        assert_eq!(
            app.input().value(),
            ":frobnicate",
            "the text stays to be corrected"
        );
        assert!(app.input_held());
        assert_eq!(app.focus(), Focus::Board, "and the board has the keys");
    }

    #[test]
    fn every_row_is_named_once_and_documented() {
        for row in TYPED_COMMANDS {
            let names = TYPED_COMMANDS
                .iter()
                .filter(|other| {
                    other.answers_to(row.name) || row.aliases.iter().any(|a| other.answers_to(a))
                })
                .count();
            assert_eq!(names, 1, ":{} answers for one command", row.name);
            assert!(!row.help.is_empty(), ":{} has its line of help", row.name);
            assert!(
                row.name.bytes().all(|b| b.is_ascii_lowercase()),
                ":{}",
                row.name
            );
        }
    }

    #[test]
    fn every_rows_name_reaches_its_command() {
        for row in TYPED_COMMANDS {
            let found = TYPED_COMMANDS.iter().find(|c| c.answers_to(row.name));
            assert!(
                found.is_some_and(|c| std::ptr::eq(c, row)),
                ":{} finds its own row",
                row.name
            );
            let mut app = app();
            let _ = app.update(Action::Submit(format!(":{}", row.name)));
            assert!(
                !app.status().starts_with("unknown command"),
                ":{}: {}",
                row.name,
                app.status()
            );
        }
    }

    #[test]
    fn commands_do_what_their_rows_say() {
        let mut app = app();
        let _ = app.update(Action::Submit(":help".into()));
        assert!(app.help_open());
        let _ = app.update(Action::Help(HelpAction::Toggle));
        let effects = app.update(Action::Submit(":save  my game ".into()));
        assert!(matches!(
            effects.as_slice(),
            [Effect::Save { name: Some(name), .. }] if name == "my game"
        ));
        let effects = app.update(Action::Submit(":save".into()));
        assert!(matches!(
            effects.as_slice(),
            [Effect::Save { name: None, .. }]
        ));
        let _ = app.update(Action::Submit(":level hard now".into()));
        assert_eq!(app.players().white, Player::Engine(Level::Hard));
        let _ = app.update(Action::Submit(":level".into()));
        assert_eq!(
            app.status(),
            "which level? random, easy, medium, hard or max"
        );
        assert_eq!(
            app.input().value(),
            ":level",
            "a refused command stays in the box"
        );
        let _ = app.update(Action::Submit(":flip".into()));
        assert!(
            app.input().value().is_empty(),
            "a command done empties the box"
        );
        assert!(matches!(
            app.update(Action::Submit(":load".into())).as_slice(),
            [Effect::ListSaved]
        ));
        assert!(
            app.update(Action::Submit(":quit".into()))
                .iter()
                .any(|e| matches!(e, Effect::Quit))
        );
    }
}
