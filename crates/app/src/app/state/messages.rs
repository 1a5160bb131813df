//! What the status line says in each state, with the keys as bound.

use super::App;
use crate::app::mode::Mode;
use crate::config::Context;
use crate::engine::Player;
use crate::game::{count, moves_played};

impl App {
    pub(super) fn resume_question(&self) -> String {
        match self.resume_offer() {
            Some((game, _)) => format!(
                "An unfinished game ({} played) was saved. Resume it? y: resume, n: new game",
                count(game.moves_played(), "move", "moves")
            ),
            None => String::new(),
        }
    }

    /// "move 12, White to play", and what the player can do about it.
    pub(super) fn turn_message(&self) -> String {
        let side = self.play.game().position().side_to_move();
        let turn = format!(
            "move {}, {side} to play",
            self.play.game().next_move_number().number
        );
        if let Some(table) = &self.table {
            return self.table_turn_message(table, turn);
        }
        if let Player::Engine(level) = self.players.of(side) {
            if self.paused {
                return format!(
                    "{turn}: the engine ({level}) is held ({} lets it go on)",
                    self.key(Context::Board, "pause", ":pause")
                );
            }
            return format!(
                "{turn}: the engine ({level}) is thinking ({}: move now)",
                self.key(Context::Board, "move-now", ":move")
            );
        }
        if self.play.picker().must_capture() {
            let position = self.play.game().position();
            let takers: Vec<String> = self
                .play
                .picker()
                .movable()
                .into_iter()
                .map(|square| position.square_name(square).to_string())
                .collect();
            format!(
                "{turn}: a capture is compulsory ({} can take)",
                takers.join(", ")
            )
        } else {
            turn
        }
    }

    /// The point after `ply` moves: `the start`, or `after 12... 23-19`.
    pub(super) fn point(&self, ply: usize) -> String {
        match ply {
            0 => "the start".to_string(),
            _ => format!(
                "after {}",
                self.play
                    .game()
                    .point_text(ply, self.play.game().variant().notation())
            ),
        }
    }

    /// The first key bound to a command, for messages, or `fallback` (a :command) when it has none.
    pub(super) fn key(&self, context: Context, name: &str, fallback: &str) -> String {
        self.preferences
            .keys
            .first_key(context, name)
            .map_or_else(|| fallback.to_string(), |k| k.to_string())
    }

    pub(super) fn browsing_refusal(&self) -> String {
        format!(
            "browsing: press {} to return to the game",
            self.key(Context::Board, "cancel", "Esc")
        )
    }

    pub(super) fn engine_refusal(&self) -> String {
        if let Some(table) = &self.table {
            return self.table_refusal(table);
        }
        format!(
            "the engine is thinking ({}: move now)",
            self.key(Context::Board, "move-now", ":move")
        )
    }

    /// The status line's message for the current mode.
    pub(super) fn mode_message(&self) -> String {
        match self.mode {
            Mode::Play => self.turn_message(),
            Mode::Over(outcome) if self.table.as_ref().is_some_and(|t| t.seat().is_some()) => {
                format!(
                    "{outcome}. {}: rematch, {}: browse the game, {}: back to the lobby",
                    self.key(Context::Board, "rematch", ":rematch"),
                    self.key(Context::Board, "back", "Tab"),
                    self.key(Context::Board, "quit", ":quit")
                )
            }
            Mode::Over(outcome) if self.table.is_some() => format!(
                "{outcome}. {}: browse the game, {}: back to the lobby",
                self.key(Context::Board, "back", "Tab"),
                self.key(Context::Board, "quit", ":quit")
            ),
            Mode::Over(outcome) => {
                format!(
                    "{outcome}. {}: new game, {}: rematch, {}: browse",
                    self.key(Context::Board, "new-game", ":new"),
                    self.key(Context::Board, "rematch", ":rematch"),
                    self.key(Context::Board, "back", "Tab")
                )
            }
            Mode::Browsing { ply } => match &self.replay {
                Some(replay) => {
                    let playing = if replay.playing {
                        format!(
                            "playing back, {:.2} s a move ({} pauses, {} {})",
                            replay.interval().as_secs_f64(),
                            self.key(Context::Replay, "play", "-"),
                            self.key(Context::Replay, "faster", "-"),
                            self.key(Context::Replay, "slower", "-")
                        )
                    } else {
                        format!("{} plays back", self.key(Context::Replay, "play", "-"))
                    };
                    let end = match (&replay.error, ply == self.play.game().len()) {
                        (Some(error), true) => format!(" The record stops here: {error}."),
                        _ => String::new(),
                    };
                    format!(
                        "{}: {} of {}; {playing}, {} continues from here.{end}",
                        replay.source,
                        self.point(ply),
                        count(
                            moves_played(&self.play.game().start(), self.play.game().len()),
                            "move",
                            "moves"
                        ),
                        self.key(Context::Replay, "continue", ":continue")
                    )
                }
                None => format!(
                    "browsing: {}, {} played ({} returns to the game)",
                    self.point(ply),
                    count(self.play.game().moves_played(), "move", "moves"),
                    self.key(Context::Board, "cancel", "Esc")
                ),
            },
            Mode::Setup(setup) => match setup.check() {
                Ok(position) => format!(
                    "setting up: {} to move; {} starts the game, {} returns to the old one",
                    position.side_to_move(),
                    self.key(Context::Setup, "start", "Enter"),
                    self.key(Context::Setup, "cancel", "Esc")
                ),
                Err(e) => format!("setting up: {e}"),
            },
        }
    }
}
