//! The input box: typed moves and `:commands`.

use super::*;

impl App {
    pub(super) fn submit_input(&mut self) -> Vec<Effect> {
        let text = self.input.value().trim().to_string();
        if let Some(command) = text.strip_prefix(':') {
            return self.command(command.trim());
        }
        if text.is_empty() {
            self.clear_input();
            return Vec::new();
        }
        if !matches!(self.mode, Mode::Play) || !self.humans_turn() {
            self.status = match self.mode {
                Mode::Over(_) => self.mode_message(),
                Mode::Browsing { .. } => self.browsing_refusal(),
                Mode::Play => self.engine_refusal(),
                Mode::Setup(_) => {
                    "setting up: moves are played once the game starts (Enter)".into()
                }
            };
            return Vec::new();
        }
        let found = MoveText::parse(&text, BOARD)
            .and_then(|t| t.find(self.game.position(), Strictness::Exact));
        match found {
            Ok(mv) => {
                self.clear_input();
                self.play(mv)
            }
            Err(e) => {
                // The text stays in the box for correction.
                self.focus = Focus::Input;
                self.status = e.to_string();
                Vec::new()
            }
        }
    }

    pub(super) fn clear_input(&mut self) {
        self.input.reset();
        if self.focus == Focus::Input {
            self.focus = Focus::Board;
        }
    }

    pub(super) fn command(&mut self, command: &str) -> Vec<Effect> {
        let mut words = command.split_whitespace();
        let name = words.next().unwrap_or("");
        let argument = words.next();
        let effects = match name {
            "new" => self.update(Action::NewGame),
            "rematch" => self.update(Action::Rematch),
            "undo" => self.take_back(),
            "redo" => self.step_forward(),
            "flip" => self.update(Action::Flip),
            "help" => {
                self.help = true;
                self.help_scroll = 0;
                Vec::new()
            }
            "quit" => self.update(Action::Interrupt),
            "move" => self.move_now(),
            "save" => vec![Effect::Save {
                game: Box::new(self.game.clone()),
                players: self.players,
                // The name is the rest of the line, spaces and all (the store makes it a safe file name).
                name: command
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.trim().to_string()),
            }],
            "resign" | "draw" => self.resign_or_offer_draw(name),
            "pause" => self.toggle_pause(),
            "setup" => self.update(Action::Setup(SetupAction::Open)),
            "load" => vec![Effect::ListSaved],
            "continue" => self.update(Action::Continue),
            "fen" => {
                let text = command
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.trim());
                match self.fen_command(text) {
                    Ok(effects) => effects,
                    Err(refusal) => {
                        // The text stays in the box for correction.
                        self.focus = Focus::Input;
                        self.status = refusal;
                        return Vec::new();
                    }
                }
            }
            "level" => match argument.map(str::parse::<Level>) {
                Some(Ok(level)) => {
                    self.set_engine_level(level);
                    Vec::new()
                }
                refused => {
                    self.focus = Focus::Input;
                    self.status = match refused {
                        Some(Err(e)) => e.to_string(),
                        _ => "which level? random, easy, medium, hard or max".into(),
                    };
                    return Vec::new();
                }
            },
            _ => {
                // The text stays in the box for correction.
                self.focus = Focus::Input;
                self.status = format!("unknown command :{name} (commands: {COMMANDS})");
                return Vec::new();
            }
        };
        self.clear_input();
        effects
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
