//! Game clocks: a time control (Fischer increment like `5+3`, or a fixed time per move) and the two clocks it
//! runs. Pure: the caller says what time it is (any monotonic count, as a [`Duration`] since some start), so the
//! same code serves a local game, a server's room and the tests.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use super::{Outcome, WinReason};
use crowned_rules::Color;

/// The time controls offered where one is chosen from a list (the new-game dialog, the server's lobby), in
/// the order they are cycled through: none, then the usual Fischer controls from bullet to slow, then a fixed
/// time per move.
pub const TIME_CONTROL_CHOICES: [&str; 8] =
    ["none", "1+0", "3+2", "5+3", "10+5", "15+10", "30+20", "30s"];

/// The end of a game whose `flagged` side ran out of time: the other side wins. The draughts federations'
/// rules (FMJD, ACF) make a flag fall a loss whatever is on the board: no material is too little to win with,
/// since blocking the other side's last pieces wins in every variant.
pub fn lost_on_time(flagged: Color) -> Outcome {
    Outcome::Win {
        winner: flagged.opponent(),
        reason: WinReason::Time,
    }
}

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A starting time for the game and an increment added after each move (`5+3`: five minutes, three
    /// seconds a move).
    Fischer {
        /// Each side's time at the start.
        initial: Duration,
        /// Added to a side's time after each of its moves.
        increment: Duration,
    },
    /// A fixed time for every move, unused time not carried over (`30s`).
    PerMove(Duration),
}

/// Why a time control could not be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error(
    "{0:?} is not a time control: write minutes and an increment in seconds (5+3, 0.5+2) or seconds per move (30s)"
)]
pub struct TimeControlError(pub String);

/// The longest starting time: a day.
const MAX_INITIAL: Duration = Duration::from_secs(86_400);
/// The longest increment or time per move: an hour.
const MAX_STEP: Duration = Duration::from_secs(3_600);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads the form players type: minutes and an increment in seconds (`5+3`, `0.5+2`), or seconds per move
    /// (`30s`).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(crowned_rules::excerpt(text).to_string());
        let trimmed = text.trim();
        if let Some(seconds) = trimmed.strip_suffix('s') {
            return per_move(number(seconds).ok_or_else(error)?).ok_or_else(error);
        }
        let (minutes, increment) = trimmed.split_once('+').ok_or_else(error)?;
        let minutes = number(minutes).ok_or_else(error)?;
        let increment = number(increment).ok_or_else(error)?;
        fischer(minutes * 60.0, increment).ok_or_else(error)
    }
}

impl TimeControl {
    /// The control as PDN's and PGN's `TimeControl` tag writes it, in seconds: `300+3` for five minutes and
    /// three seconds a move, `1/30` for thirty seconds a move. [`TimeControl::from_pdn_text`] reads it back.
    pub fn pdn_text(&self) -> String {
        match self {
            TimeControl::Fischer { initial, increment } => {
                format!("{}+{}", initial.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::PerMove(step) => format!("1/{}", step.as_secs_f64()),
        }
    }

    /// Reads a `TimeControl` tag in the standard forms, in seconds: `300+3` (a starting time and an increment),
    /// `300` (a starting time alone) and `1/30` (one move in thirty seconds). `?` (unknown) and `-` (no clock)
    /// are refused, as are periods of several moves, which the program's clocks do not run.
    pub fn from_pdn_text(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError(crowned_rules::excerpt(text).to_string());
        let trimmed = text.trim();
        if let Some((moves, seconds)) = trimmed.split_once('/') {
            if moves.trim() != "1" {
                return Err(error());
            }
            return per_move(number(seconds).ok_or_else(error)?).ok_or_else(error);
        }
        let (initial, increment) = trimmed.split_once('+').unwrap_or((trimmed, "0"));
        let initial = number(initial).ok_or_else(error)?;
        let increment = number(increment).ok_or_else(error)?;
        fischer(initial, increment).ok_or_else(error)
    }
}

/// A finite number of zero or more, as a time control writes it.
fn number(text: &str) -> Option<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n >= 0.0)
}

/// A Fischer control of `initial` and `increment` seconds, when both are within bounds and not both zero.
fn fischer(initial: f64, increment: f64) -> Option<TimeControl> {
    // Checked before they become Durations, which cannot hold every number.
    if initial > MAX_INITIAL.as_secs_f64() || increment > MAX_STEP.as_secs_f64() {
        return None;
    }
    let initial = Duration::from_secs_f64(initial);
    let increment = Duration::from_secs_f64(increment);
    (!(initial.is_zero() && increment.is_zero()))
        .then_some(TimeControl::Fischer { initial, increment })
}

/// A fixed time of `seconds` a move, when it is within bounds and not zero.
fn per_move(seconds: f64) -> Option<TimeControl> {
    (seconds > 0.0 && seconds <= MAX_STEP.as_secs_f64())
        .then(|| TimeControl::PerMove(Duration::from_secs_f64(seconds)))
}

impl fmt::Display for TimeControl {
    /// `5+3` or `30s`, as players type them (which read back the same); records use
    /// [`TimeControl::pdn_text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Fischer { initial, increment } => {
                write!(
                    f,
                    "{}+{}",
                    initial.as_secs_f64() / 60.0,
                    increment.as_secs_f64()
                )
            }
            TimeControl::PerMove(step) => write!(f, "{}s", step.as_secs_f64()),
        }
    }
}

/// A game's clocks as they stand, stopped: what is saved with a game in progress and resumed with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// The time control.
    pub control: TimeControl,
    /// Each side's time left, by [`Color::index`].
    pub left: [Duration; 2],
}

/// Why a saved clock state could not be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0:?} is not two times left in seconds (Black's, then White's)")]
pub struct ClockStateError(pub String);

impl ClockState {
    /// Each side's time left as written with a game: Black's then White's seconds, to the millisecond
    /// (`245.300 198.000`).
    pub fn left_text(&self) -> String {
        let [black, white] = self.left.map(|d| d.as_secs_f64());
        format!("{black:.3} {white:.3}")
    }

    /// Reads back [`ClockState::left_text`] for `control`. A time longer than the control could ever give is
    /// refused, as is anything but two numbers.
    pub fn read(control: TimeControl, left: &str) -> Result<ClockState, ClockStateError> {
        let error = || ClockStateError(crowned_rules::excerpt(left).to_string());
        let most = (MAX_INITIAL + MAX_STEP).as_secs_f64();
        let mut times = left.split_whitespace().map(|t| {
            t.parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && (0.0..=most).contains(n))
                .map(Duration::from_secs_f64)
        });
        match (times.next(), times.next(), times.next()) {
            (Some(Some(black)), Some(Some(white)), None) => Ok(ClockState {
                control,
                left: [black, white],
            }),
            _ => Err(error()),
        }
    }
}

/// The two clocks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Each side's time left, by [`Color::index`], as of when it last stopped.
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Duration)>,
}

/// The least a takeback leaves on a clock it takes an increment back from.
const TAKEN_BACK_FLOOR: Duration = Duration::from_millis(100);

impl Clock {
    /// Both clocks set for `control`, stopped.
    pub fn new(control: TimeControl) -> Clock {
        let full = match control {
            TimeControl::Fischer { initial, .. } => initial,
            TimeControl::PerMove(step) => step,
        };
        Clock {
            control,
            left: [full; 2],
            running: None,
        }
    }

    /// Clocks for `control` with `left` on each (by [`Color::index`]), stopped: a game resumed where it stood.
    pub fn resumed(control: TimeControl, left: [Duration; 2]) -> Clock {
        Clock {
            control,
            left,
            running: None,
        }
    }

    /// Clocks resumed from a saved `state`, stopped.
    pub fn from_state(state: ClockState) -> Clock {
        Clock::resumed(state.control, state.left)
    }

    /// The clocks as they stand at `now`, stopped, for saving.
    pub fn state(&self, now: Duration) -> ClockState {
        ClockState {
            control: self.control,
            left: [Color::Black, Color::White].map(|side| self.left(side, now)),
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose clock runs, if one does.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// `side`'s time left at `now` (zero once it has run out).
    pub fn left(&self, side: Color, now: Duration) -> Duration {
        let stopped = self.left[side.index()];
        match self.running {
            Some((running, since)) if running == side => {
                stopped.saturating_sub(now.saturating_sub(since))
            }
            _ => stopped,
        }
    }

    /// A move of `side` is taken back: the Fischer increment it earned goes with it (the time it spent stays
    /// spent), so that taking moves back and playing them again never adds time. At least a tenth of a second
    /// is left, so that a takeback never makes a flag fall by itself.
    pub fn take_back(&mut self, side: Color, now: Duration) {
        let TimeControl::Fischer { increment, .. } = self.control else {
            return;
        };
        let running = self.running;
        self.stop(now);
        let slot = &mut self.left[side.index()];
        *slot = slot
            .saturating_sub(increment)
            .max((*slot).min(TAKEN_BACK_FLOOR));
        if let Some((running, _)) = running {
            self.running = Some((running, now));
        }
    }

    /// A move of `side` that was taken back is played again from the redo line: the Fischer increment it
    /// earned comes back with it (the inverse of [`Clock::take_back`]).
    pub fn replay(&mut self, side: Color) {
        if let TimeControl::Fischer { increment, .. } = self.control {
            self.left[side.index()] += increment;
        }
    }

    /// Starts `side`'s clock at `now` (the other stops, keeping what it had).
    pub fn start(&mut self, side: Color, now: Duration) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock at `now`, keeping what it had left: a pause, agreed by both players.
    pub fn stop(&mut self, now: Duration) {
        if let Some((side, _)) = self.running {
            self.left[side.index()] = self.left(side, now);
            self.running = None;
        }
    }

    /// The side whose time has run out at `now`, if one has.
    pub fn flagged(&self, now: Duration) -> Option<Color> {
        self.running
            .map(|(side, _)| side)
            .filter(|side| self.left(*side, now).is_zero())
    }

    /// How long until the running side's time runs out, for a timer.
    pub fn until_flag(&self, now: Duration) -> Option<Duration> {
        self.running.map(|(side, _)| self.left(side, now))
    }

    /// The running side has moved at `now`: its clock stops (with the increment added, or set back to the full
    /// time per move) and the other side's starts. Returns the side that ran out of time instead, if it did
    /// (its move came too late, and the clocks stay as they are).
    pub fn press(&mut self, now: Duration) -> Result<(), Color> {
        let Some((side, _)) = self.running else {
            return Ok(());
        };
        if self.left(side, now).is_zero() {
            return Err(side);
        }
        self.stop(now);
        let slot = &mut self.left[side.index()];
        *slot = match self.control {
            TimeControl::Fischer { increment, .. } => *slot + increment,
            TimeControl::PerMove(step) => step,
        };
        self.running = Some((side.opponent(), now));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(seconds: f64) -> Duration {
        Duration::from_secs_f64(seconds)
    }

    #[test]
    fn time_controls_read_write_and_refuse() {
        let fischer: TimeControl = "5+3".parse().expect("valid");
        assert_eq!(
            fischer,
            TimeControl::Fischer {
                initial: s(300.0),
                increment: s(3.0)
            }
        );
        assert_eq!(fischer.to_string(), "5+3");
        for text in ["0.5+2", "30s", "1+0", "0+5", " 15+10 "] {
            let control: TimeControl = text.parse().expect(text);
            assert_eq!(
                control.to_string().parse::<TimeControl>(),
                Ok(control),
                "{text}"
            );
        }
        for bad in [
            "", "5", "+3", "5+", "0+0", "-1+2", "5+x", "0s", "NaN+1", "99999+1", "inf+0", "5+3+1",
            "1e300s", "1e300+0", "0+1e300",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn records_write_seconds_and_read_them_back() {
        let fischer: TimeControl = "5+3".parse().expect("valid");
        assert_eq!(fischer.pdn_text(), "300+3");
        assert_eq!(TimeControl::from_pdn_text("300+3"), Ok(fischer));
        let per_move: TimeControl = "30s".parse().expect("valid");
        assert_eq!(per_move.pdn_text(), "1/30");
        assert_eq!(TimeControl::from_pdn_text("1/30"), Ok(per_move));
        assert_eq!(
            TimeControl::from_pdn_text(" 600 "),
            Ok(TimeControl::Fischer {
                initial: s(600.0),
                increment: s(0.0)
            }),
            "a starting time alone"
        );
        for choice in TIME_CONTROL_CHOICES.iter().skip(1) {
            let control: TimeControl = choice.parse().expect(choice);
            assert_eq!(
                TimeControl::from_pdn_text(&control.pdn_text()),
                Ok(control),
                "{choice} as {}",
                control.pdn_text()
            );
        }
        for bad in [
            "", "?", "-", "+3", "300+", "0+0", "0", "40/9000", "1/0", "1/", "/30", "-1+2", "300+x",
            "NaN", "inf+0", "1e300", "0+1e300", "1/1e300", "300+3+1", "1/30/2",
        ] {
            assert!(TimeControl::from_pdn_text(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn fischer_clocks_run_add_the_increment_and_fall() {
        let mut clock = Clock::new("1+2".parse().expect("valid"));
        assert_eq!(clock.running(), None);
        clock.start(Color::Black, s(0.0));
        assert_eq!(clock.left(Color::Black, s(10.0)), s(50.0));
        assert_eq!(clock.left(Color::White, s(10.0)), s(60.0));
        assert_eq!(clock.press(s(10.0)), Ok(()));
        assert_eq!(clock.left(Color::Black, s(99.0)), s(52.0));
        assert_eq!(clock.running(), Some(Color::White));
        // A pause keeps what each side has.
        clock.stop(s(20.0));
        assert_eq!(clock.left(Color::White, s(500.0)), s(50.0));
        clock.start(Color::White, s(500.0));
        assert_eq!(clock.until_flag(s(510.0)), Some(s(40.0)));
        assert_eq!(clock.flagged(s(549.0)), None);
        assert_eq!(clock.flagged(s(550.0)), Some(Color::White));
        // A move after the fall does not save the game.
        assert_eq!(clock.press(s(551.0)), Err(Color::White));
    }

    #[test]
    fn a_saved_state_reads_back_and_nonsense_is_refused() {
        let mut clock = Clock::new("5+3".parse().expect("valid"));
        clock.start(Color::Black, s(0.0));
        let state = clock.state(s(54.6999));
        assert_eq!(state.left_text(), "245.300 300.000");
        let read = ClockState::read(state.control, &state.left_text()).expect("reads back");
        assert_eq!(read.left, [s(245.3), s(300.0)]);
        let resumed = Clock::from_state(read);
        assert_eq!(
            resumed.running(),
            None,
            "a resumed clock waits to be started"
        );
        for bad in [
            "", "1", "1 2 3", "x 2", "-1 2", "NaN 2", "inf 1", "1e300 1", "1,5 2",
        ] {
            assert!(ClockState::read(state.control, bad).is_err(), "{bad:?}");
        }
        for choice in TIME_CONTROL_CHOICES.iter().skip(1) {
            assert!(choice.parse::<TimeControl>().is_ok(), "{choice}");
        }
    }

    #[test]
    fn time_per_move_is_not_carried_over() {
        let mut clock = Clock::new("30s".parse().expect("valid"));
        clock.start(Color::White, s(0.0));
        assert_eq!(clock.press(s(5.0)), Ok(()));
        assert_eq!(clock.left(Color::White, s(5.0)), s(30.0));
        assert_eq!(clock.flagged(s(34.0)), None);
        assert_eq!(clock.flagged(s(35.0)), Some(Color::Black));
    }

    #[test]
    fn a_takeback_takes_an_increment_back_and_never_flags() {
        let second = Duration::from_secs(1);
        let mut clock = Clock::new("1+3".parse().expect("valid"));
        clock.start(Color::Black, Duration::ZERO);
        clock.press(5 * second).expect("in time");
        assert_eq!(clock.left(Color::Black, 5 * second), 58 * second);
        clock.take_back(Color::Black, 6 * second);
        assert_eq!(clock.left(Color::Black, 6 * second), 55 * second);
        assert_eq!(
            clock.running(),
            Some(Color::White),
            "the running clock runs on"
        );
        assert_eq!(clock.left(Color::White, 6 * second), 59 * second);
        // Nearly out of time: a tenth of a second stays.
        let mut low = Clock::resumed("1+3".parse().expect("valid"), [second, second]);
        low.take_back(Color::White, Duration::ZERO);
        assert_eq!(
            low.left(Color::White, Duration::ZERO),
            Duration::from_millis(100)
        );
        // A time per move has no increment to take back.
        let mut per_move = Clock::new("30s".parse().expect("valid"));
        per_move.take_back(Color::Black, Duration::ZERO);
        assert_eq!(per_move.left(Color::Black, Duration::ZERO), 30 * second);
    }
}
