//! Setting up a position by hand, and `:fen`.

use super::App;
use crate::app::action::{Action, Effect, EngineNews, SetupAction};
use crate::app::mode::{Focus, Mode};
use crate::app::setup::{Setup, check_position};
use crate::config::Context;
use crate::engine::Players;
use crate::game::AnyGame;
use crate::rules::{AnyPosition, GameType};

impl App {
    /// Starts setting up a position, from the one on show, for `players`. The engine stops; the game is kept
    /// until a new one starts.
    pub(super) fn open_setup(&mut self, players: Players) -> Vec<Effect> {
        let (position, game_type) = (self.shown_position(), self.game_type());
        self.open_setup_from(position, game_type, players)
    }

    /// Starts setting up a position of another variant or board (chosen in the new-game dialog), from its
    /// start.
    pub(super) fn open_setup_as(&mut self, game_type: GameType, players: Players) -> Vec<Effect> {
        if game_type == self.game_type() {
            return self.open_setup(players);
        }
        self.open_setup_from(AnyPosition::start(game_type), game_type, players)
    }

    fn open_setup_from(
        &mut self,
        position: AnyPosition,
        game_type: GameType,
        players: Players,
    ) -> Vec<Effect> {
        let effects = self.stop_thinking();
        self.mode = Mode::Setup(Setup::new(position, game_type, players));
        self.fit_cursor();
        self.focus = Focus::Board;
        self.status = self.mode_message();
        effects
    }

    /// The actions setting up handles itself, or `None` for those that work as usual (typing, help, quitting,
    /// flipping, the engine's late answers).
    pub(super) fn setup_action(
        &mut self,
        mut setup: Setup,
        action: &Action,
    ) -> Option<Vec<Effect>> {
        if !action.from_player() {
            return None;
        }
        let square = self.cursor_square();
        let done = match action {
            Action::Setup(SetupAction::Start) => return Some(self.start_setup(setup)),
            Action::Setup(what) => setup.apply(*what, square),
            Action::PickAtCursor => setup.cycle(square),
            Action::PickSquare(square) => {
                self.put_cursor(*square);
                setup.cycle(Some(*square))
            }
            Action::Up | Action::Down | Action::Left | Action::Right => {
                self.move_cursor(action);
                return Some(Vec::new());
            }
            Action::Cancel if self.focus != Focus::Input => return Some(self.leave_setup()),
            Action::Cancel
            | Action::Edit(_)
            | Action::Paste(_)
            | Action::SubmitInput
            | Action::Submit(_)
            | Action::StartTyping
            | Action::Help(_)
            | Action::Flip
            | Action::Engine(EngineNews::Progress { .. } | EngineNews::Moved { .. })
            | Action::Quit
            | Action::Interrupt
            | Action::Notice(_) => return None,
            _ => {
                self.status = format!(
                    "setting up a position: {} starts a game from it, {} returns to the game",
                    self.key(Context::Setup, "start", "Enter"),
                    self.key(Context::Setup, "cancel", "Esc")
                );
                return Some(Vec::new());
            }
        };
        self.mode = Mode::Setup(setup);
        self.status = match done {
            // A defined variant's kinds look alike to a newcomer: say which one now stands there.
            Ok(()) => match square.and_then(|s| setup.describe(s)) {
                Some(piece) => format!("{piece} placed · {}", self.mode_message()),
                None => self.mode_message(),
            },
            Err(e) => e.to_string(),
        };
        Some(Vec::new())
    }

    /// Starts a game from the set-up position, or says why it cannot.
    pub(super) fn start_setup(&mut self, setup: Setup) -> Vec<Effect> {
        match setup.check() {
            Ok(position) => self.start_game(Self::game_from(position), setup.players()),
            Err(e) => {
                self.status = format!("cannot start: {e}");
                Vec::new()
            }
        }
    }

    /// A game from `position` (the standard start is recorded as an ordinary game, without a FEN).
    pub(super) fn game_from(position: AnyPosition) -> AnyGame {
        AnyGame::from_position(position)
    }

    /// Back to the game as it was, the engine thinking again if it is its turn.
    pub(super) fn leave_setup(&mut self) -> Vec<Effect> {
        self.focus = Focus::Board;
        if self.replay.is_some() {
            // Back to the record (at its end): nobody plays a replayed game.
            self.mode = Mode::Browsing {
                ply: self.play.game().len(),
            };
            self.focus = Focus::History;
            self.status = self.mode_message();
            return Vec::new();
        }
        match self.play.game().outcome() {
            Some(outcome) => {
                self.mode = Mode::Over(outcome);
                self.status = self.mode_message();
                Vec::new()
            }
            None => {
                self.mode = Mode::Play;
                self.play.refresh_picker();
                self.place_cursor();
                self.status = self.mode_message();
                self.next_turn()
            }
        }
    }

    /// `:fen` shows the position on show in FEN; `:fen <FEN>` sets it up, or in play starts a game from it.
    pub(super) fn fen_command(&mut self, text: Option<&str>) -> Result<Vec<Effect>, String> {
        let Some(text) = text.filter(|t| !t.is_empty()) else {
            // The FEN comes last, whole (a long one wraps, and is marked if the status line cannot hold it):
            // the way to copy it comes first, where it is always seen.
            self.status = format!(
                "FEN (:copy fen copies it): {}",
                self.shown_position().to_fen()
            );
            return Ok(Vec::new());
        };
        let position = AnyPosition::from_fen(self.game_type(), text)
            .map_err(|e| format!("bad FEN for {}: {e}", self.game_type()))?;
        if let Mode::Setup(mut setup) = self.mode {
            setup.set_position(position);
            self.mode = Mode::Setup(setup);
            self.status = self.mode_message();
            return Ok(Vec::new());
        }
        check_position(&position).map_err(|e| format!("cannot start: {e}"))?;
        Ok(self.start_game(Self::game_from(position), self.players))
    }
}
