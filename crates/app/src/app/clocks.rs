//! The clocks of a local game, a part of the app: the time control new games get, the game's clocks, the front
//! end's time, and whether a move pressed the clock since the app last looked.
//!
//! The app has no time source of its own: the front end says what time it is before each action, as a count
//! since any start, and the clocks run by it. Which clock runs is decided by the app after every action, from
//! the game and what the player is doing ([`Clocks::run`]); the clocks then say whether a wake-up is due, and
//! when.

use std::time::Duration;

use super::table::TENTHS_BELOW;
use crate::engine::{self, Level, Limits};
use crate::game::{Clock, ClockState, TimeControl};
use crate::rules::Color;

/// The clocks as the screen shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// Each side's time left, by [`Color::index`].
    pub left: [Duration; 2],
    /// The side whose clock runs, if one does.
    pub running: Option<Color>,
}

/// What the engine is not given of its clock, for the time a move spends outside its search: asking for the
/// search, the answer coming back, the move being played and the clock pressed.
pub(super) const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// Wakes come this long after the moment a clock shows a new second, so that the frame drawn then shows it.
pub(super) const PAST_THE_SECOND: Duration = Duration::from_millis(5);

/// The clocks.
#[derive(Clone, Debug)]
pub(super) struct Clocks {
    /// The time control new games get (`None`: no clocks).
    new_games: Option<TimeControl>,
    /// The clocks of the game in play, when it has them.
    clock: Option<Clock>,
    /// The front end's time as it last said.
    now: Duration,
    /// Whether a move pressed the clock since the app last looked ([`Clocks::run`]): the other side's clock
    /// needs its wake-up.
    pressed: bool,
}

impl Clocks {
    /// Fresh clocks of `time_control` for a new game, which new games after it get too.
    pub(super) fn new(time_control: Option<TimeControl>) -> Clocks {
        Clocks {
            new_games: time_control,
            clock: time_control.map(Clock::new),
            now: Duration::ZERO,
            pressed: false,
        }
    }

    /// For a game that replaces `old`'s: its time control and the front end's time, with fresh clocks.
    pub(super) fn carry_over(&mut self, old: &Clocks) {
        self.now = old.now;
        self.new_games = old.new_games;
        self.fresh();
    }

    /// The front end's time (it only goes forward).
    pub(super) fn set_time(&mut self, now: Duration) {
        self.now = self.now.max(now);
    }

    /// The time control of the game in play, if it has clocks.
    pub(super) fn game_control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(Clock::control)
    }

    /// The time control new games get.
    pub(super) fn new_games(&self) -> Option<TimeControl> {
        self.new_games
    }

    /// Changes the time control new games get (the game in play keeps its clocks).
    pub(super) fn set_new_games(&mut self, time_control: Option<TimeControl>) {
        self.new_games = time_control;
    }

    /// Fresh clocks for the game in play, of the time control new games get.
    pub(super) fn fresh(&mut self) {
        self.clock = self.new_games.map(Clock::new);
    }

    /// The clocks of a game resumed as they were saved (stopped until the game is in play again); their time
    /// control is the one new games get from now on.
    pub(super) fn resume(&mut self, saved: Option<ClockState>) {
        if let Some(state) = saved {
            self.new_games = Some(state.control);
        }
        self.clock = saved.map(Clock::from_state);
    }

    /// Whether the game in play has clocks.
    pub(super) fn in_game(&self) -> bool {
        self.clock.is_some()
    }

    /// The clocks as they stand, for the screen.
    pub(super) fn view(&self) -> Option<ClockView> {
        let clock = self.clock.as_ref()?;
        Some(ClockView {
            left: [Color::Black, Color::White].map(|side| clock.left(side, self.now)),
            running: clock.running(),
        })
    }

    /// The clocks as they stand, for saving with the game.
    pub(super) fn state(&self) -> Option<ClockState> {
        self.clock.as_ref().map(|clock| clock.state(self.now))
    }

    /// Runs `wanted`'s clock, or none: a side that is to move without having been handed the clock by a move
    /// (after an undo, a resumed game, the start) starts from what it had. Whether a wake-up is due: the clock
    /// that runs changed, or a move pressed the clock since the last look.
    pub(super) fn run(&mut self, wanted: Option<Color>) -> bool {
        let pressed = std::mem::take(&mut self.pressed);
        let Some(clock) = self.clock.as_mut() else {
            return false;
        };
        if clock.running() == wanted {
            return pressed;
        }
        match wanted {
            Some(side) => clock.start(side, self.now),
            None => clock.stop(self.now),
        }
        true
    }

    /// How long until the running clock shows its next new figure (second, or tenth in the last seconds; just
    /// after it), or falls.
    pub(super) fn wake_after(&self) -> Option<Duration> {
        let left = self.clock.as_ref()?.until_flag(self.now)?;
        let step = match left <= TENTHS_BELOW {
            true => Duration::from_millis(100),
            false => Duration::from_secs(1),
        };
        let into_step = Duration::from_nanos((left.as_nanos() % step.as_nanos()) as u64);
        let after = if into_step.is_zero() {
            step.min(left)
        } else {
            into_step
        };
        Some(after + PAST_THE_SECOND)
    }

    /// The side whose time has run out, if one has.
    pub(super) fn flagged(&self) -> Option<Color> {
        self.clock.as_ref()?.flagged(self.now)
    }

    /// A move was played: the mover's clock stops (with its increment) and the other side's starts.
    pub(super) fn press(&mut self) {
        if let Some(clock) = self.clock.as_mut() {
            // The fall was looked for just before the move, at the same time.
            let _ = clock.press(self.now);
            self.pressed = true;
        }
    }

    /// Stops the clocks (the game ended).
    pub(super) fn stop(&mut self) {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(self.now);
        }
    }

    /// A move of `mover` was taken back, its `ply` the game's ply after it: the increment it earned is taken back
    /// too (each side's first move is not timed, so earned none).
    pub(super) fn take_back(&mut self, mover: Color, ply: usize) {
        if let Some(clock) = self.clock.as_mut().filter(|_| ply >= 2) {
            clock.take_back(mover, self.now);
        }
    }

    /// A move of `mover` taken back is played again from `ply`: its increment is given back.
    pub(super) fn replay(&mut self, mover: Color, ply: usize) {
        if let Some(clock) = self.clock.as_mut().filter(|_| ply >= 2) {
            clock.replay(mover);
        }
    }

    /// What the engine playing `side` at `level` is given to think with: its clock when the game has clocks
    /// (the time it has left, spent by the engine's time management), else `think_time` a move.
    pub(super) fn limits(&self, level: Level, side: Color, think_time: Duration) -> Limits {
        let Some(clock) = self.clock.as_ref() else {
            return level.limits(think_time);
        };
        let remaining = clock.left(side, self.now).saturating_sub(MOVE_OVERHEAD);
        match clock.control() {
            TimeControl::Fischer { increment, .. } => Limits {
                clock: Some(engine::TimeLeft {
                    remaining,
                    increment,
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
            // A fixed time per move is the move's whole budget, less the engine's margin.
            TimeControl::PerMove(_) => Limits::time(remaining),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wake_is_due_when_the_running_clock_changes_or_is_pressed() {
        let mut clocks = Clocks::new(Some(TimeControl::PerMove(Duration::from_secs(5))));
        assert!(!clocks.run(None), "nothing runs and nothing should");
        assert!(clocks.run(Some(Color::Black)));
        assert!(!clocks.run(Some(Color::Black)), "it runs already");
        clocks.set_time(Duration::from_secs(2));
        clocks.press();
        // The press handed the clock to White: White's is the one that should run, and its wake is due.
        assert!(clocks.run(Some(Color::White)));
        assert!(!clocks.run(Some(Color::White)));
        // The front end's time never goes back.
        clocks.set_time(Duration::from_secs(1));
        assert_eq!(clocks.view().map(|v| v.running), Some(Some(Color::White)));
        assert!(clocks.run(None));
        assert_eq!(clocks.view().map(|v| v.running), Some(None));
    }

    #[test]
    fn a_game_without_clocks_is_never_woken_and_thinks_by_the_settings() {
        let mut clocks = Clocks::new(None);
        assert!(!clocks.run(Some(Color::Black)));
        assert_eq!(clocks.wake_after(), None);
        assert_eq!(clocks.flagged(), None);
        let think = Duration::from_millis(700);
        assert_eq!(
            clocks.limits(Level::Max, Color::Black, think),
            Level::Max.limits(think)
        );
    }
}
