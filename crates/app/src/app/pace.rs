//! The pace of a game between engines, a part of the app: with nobody at the board, each move waits a set time
//! before it is shown, so that a person can follow the game. The engine thinks meanwhile, and a move it finds
//! sooner is held here until the pace timer comes.

use std::time::Duration;

use super::action::{Effect, Timer};
use crate::rules::Move;

/// The pace: whether a move waits for the timer, and the move that waits.
#[derive(Clone, Debug, Default)]
pub(super) struct Pace {
    /// Whether the next move waits for the pace timer before it is shown.
    waiting: bool,
    /// An engine's move that came before the timer, shown when it is due.
    held: Option<Move>,
}

impl Pace {
    /// Starts the wait for the next move when there is a pace (`None`: moves are shown as they come); the timer
    /// to ask for.
    pub(super) fn start(&mut self, pace: Option<Duration>) -> Option<Effect> {
        self.waiting = pace.is_some();
        pace.map(|after| Effect::Wake {
            timer: Timer::Pace,
            after,
        })
    }

    /// Moves are shown as they come from now on (the pace was turned off, or clocks set it).
    pub(super) fn stop_waiting(&mut self) {
        self.waiting = false;
    }

    /// The engine's move `mv` came: held, and `true`, while the pace has not come.
    pub(super) fn hold(&mut self, mv: Option<Move>) -> bool {
        if self.waiting && mv.is_some() {
            self.held = mv;
            return true;
        }
        false
    }

    /// Whether a move waits to be shown.
    pub(super) fn is_holding(&self) -> bool {
        self.held.is_some()
    }

    /// The timer came, or the player asked for the move now: the wait is over, and the move that waited, if
    /// one did, is to be shown.
    pub(super) fn release(&mut self) -> Option<Move> {
        self.waiting = false;
        self.held.take()
    }

    /// Forgets the move held (the game moved on without it).
    pub(super) fn drop_held(&mut self) {
        self.held = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_waits_for_the_pace_and_only_then() {
        let mv = crate::game::AnyGame::default().position().legal_moves()[0];
        let mut pace = Pace::default();
        assert!(!pace.hold(Some(mv)), "no pace: the move is shown at once");
        assert!(pace.start(None).is_none());
        let wake = pace.start(Some(Duration::from_millis(500)));
        assert!(matches!(
            wake,
            Some(Effect::Wake {
                timer: Timer::Pace,
                ..
            })
        ));
        assert!(!pace.hold(None), "no move: nothing to hold");
        assert!(pace.hold(Some(mv)));
        assert!(pace.is_holding());
        assert_eq!(pace.release(), Some(mv));
        assert!(!pace.hold(Some(mv)), "the wait is over");
    }
}
