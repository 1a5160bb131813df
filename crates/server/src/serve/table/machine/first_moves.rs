//! The clock rule for first moves: each side's first move is not timed, and must come within
//! [`FIRST_MOVE_LIMIT`] of its turn, or the game is aborted without a result (a tournament's is lost by the side
//! that did not move). The time runs from when both players are first here, then from the first move.

use std::time::Duration;

use super::{DrawReason, FIRST_MOVE_LIMIT, Outcome, Table, lost_on_time};

impl Table {
    /// Whether the side to move has its first move still to make in a timed game in play: the clocks wait for
    /// it.
    pub(super) fn first_moves_due(&self) -> bool {
        self.clock.is_some() && self.game.len() < 2 && self.game.outcome().is_none()
    }

    /// When the side to move ran out of time for its first move, the game is aborted without a result (a
    /// tournament's is lost by that side, whose opponent came to play); whether it was.
    pub(super) fn first_move_not_made(&mut self) -> bool {
        let Some(since) = self.first_move_since else {
            return false;
        };
        if !self.first_moves_due() || self.now < since + FIRST_MOVE_LIMIT {
            return false;
        }
        let side = self.game.position().side_to_move();
        let outcome = match self.event {
            Some(_) => lost_on_time(side),
            None => Outcome::Draw {
                reason: DrawReason::Aborted { side },
            },
        };
        if self.record.is_none() {
            self.record_start();
        }
        let _ = self.game.declare(outcome);
        self.first_move_since = None;
        true
    }

    /// While the side to move has its first move to make and someone is here to see it: when the time for it
    /// next shows a new second, or runs out (due at once once it has, until the game is aborted).
    pub(super) fn first_move_deadline(&self) -> Option<Duration> {
        let since = self.first_move_since.filter(|_| self.first_moves_due())?;
        let ends = since + FIRST_MOVE_LIMIT;
        if self.now >= ends || self.everyone().is_empty() {
            return Some(ends);
        }
        let next = since + Duration::from_secs(self.now.saturating_sub(since).as_secs() + 1);
        Some(next.min(ends))
    }
}
