//! A table whose game is one of a tournament's: its PDN carries the event's `[Event]` and `[Round]` tags, its
//! start and result go to the event's director, and a player who is away when their time to come back runs out
//! loses at once (nobody need claim the game: the event cannot wait). When both are away past it, the game is
//! scored a draw, and the director withdraws the absent players from a Swiss event.

use std::time::Duration;

use super::{Job, Table, TableEffect};
use crate::game::{DrawReason, Outcome, WinReason};
use crate::rules::Color;
use crate::serve::event_rules::GameResult;
use crate::serve::ids::TableCode;

/// What a tournament's director hears of one of its games as it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    /// The pairing's round (Swiss) or number (arena).
    pub round: u32,
    /// Its board.
    pub board: u32,
    /// How it ended.
    pub result: GameResult,
    /// Whether it was lost (or, both gone, drawn) by a player who was away when it ended.
    pub forfeit: bool,
}

/// The tournament pairing a table's game is.
#[derive(Clone, Debug)]
pub struct EventGame {
    /// The event's code.
    pub event: TableCode,
    /// The pairing's round (Swiss) or number (arena).
    pub round: u32,
    /// The pairing's board.
    pub board: u32,
    /// The PDN tags the game carries (`Event`, `Round`).
    pub tags: [(&'static str, String); 2],
}

impl Table {
    /// The game has gone into the records: the event learns which game its pairing is.
    pub(super) fn record_event_start(&mut self) {
        if let Some(link) = &self.event {
            let (event, round, board) = (link.event.clone(), link.round, link.board);
            self.record(|key, _| Job::EventGame {
                event,
                round,
                board,
                key,
            });
        }
    }

    /// The game is over: its result goes to the event's director.
    pub(super) fn report_to_event(&mut self, outcome: Outcome) {
        let Some(link) = &self.event else {
            return;
        };
        let away = |color: Color| {
            self.seats[color.index()]
                .as_ref()
                .is_none_or(|s| s.away_since.is_some())
        };
        let (result, forfeit) = match outcome {
            Outcome::Win { winner, .. } => (
                match winner == self.config.game_type.variant.first_to_move() {
                    true => GameResult::FirstWins,
                    false => GameResult::SecondWins,
                },
                away(winner.opponent()),
            ),
            Outcome::Draw { .. } => (GameResult::Draw, away(Color::Black) && away(Color::White)),
        };
        let ended = GameEnded {
            round: link.round,
            board: link.board,
            result,
            forfeit,
        };
        self.out.push(TableEffect::EventResult(ended));
    }

    /// In a tournament game not over, when the first absent player's time to come back runs out.
    pub(super) fn forfeit_deadline(&self) -> Option<Duration> {
        if self.event.is_none() || self.game.outcome().is_some() {
            return None;
        }
        self.seats
            .iter()
            .flatten()
            .filter_map(|s| s.away_since)
            .map(|since| since + self.config.grace)
            .min()
    }

    /// A tournament game whose absent player's time to come back has run out ends: the player here wins, or,
    /// with both gone, it is drawn.
    pub(super) fn forfeit_absent(&mut self) {
        if self.event.is_none() || self.game.outcome().is_some() {
            return;
        }
        let gone = |color: Color| {
            self.seats[color.index()].as_ref().is_none_or(|s| {
                s.away_since
                    .is_some_and(|since| self.away_for(since) >= self.config.grace)
            })
        };
        let outcome = match (gone(Color::Black), gone(Color::White)) {
            (true, true) => Outcome::Draw {
                reason: DrawReason::Abandoned,
            },
            (true, false) => Outcome::Win {
                winner: Color::White,
                reason: WinReason::Abandoned,
            },
            (false, true) => Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Abandoned,
            },
            (false, false) => return,
        };
        // A game nobody came to has no record yet: it is started in the records so that its result is kept.
        if self.record.is_none() {
            self.record_start();
        }
        let _ = self.game.declare(outcome);
        self.stop_clock();
    }
}
