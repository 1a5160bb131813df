//! A game over time: history, undo and redo, draw rules, outcomes, and PDN reading and writing. The layer above
//! the rules ([`crowned_rules`]), and below everything that plays or shows a game.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod any;
mod clock;
mod counts;
#[cfg(test)]
mod draw_tests;
mod draws;
pub mod king_moves;
pub use king_moves::KingRuns;
mod marks;
mod notes;
mod numbering;
mod outcome;
pub mod pdn;
mod record;
mod rules_page;
mod tags;

pub use any::{AnyGame, GameVisitor, GameVisitorMut};
pub use clock::{
    Clock, ClockState, ClockStateError, TIME_CONTROL_CHOICES, TimeControl, TimeControlError,
    lost_on_time,
};
pub use draws::{
    Counting, DEFINED_REPETITIONS, DrawRules, Ending, EndingRule, Endings, MAX_ENDING_RULES,
};
pub use marks::MoveMark;
pub use numbering::{MoveNumber, count, moves_played};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use record::{DEFAULT_MOVE_LIMIT, Game, GameError};
pub use rules_page::{HEADING_WIDTH, RulesPage};
pub use tags::{ROSTER, Tags};
